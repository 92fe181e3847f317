"""Exercise `attention`: the whole formula."""
import torch

from .scaled_scores import scaled_scores


def attention(Q, K, V):
    scores = scaled_scores(Q, K)
    # each query takes its goods from the best-matching key; ties share equally
    best = scores == scores.amax(dim=-1, keepdim=True)
    weights = best.to(V.dtype)
    weights = weights / weights.sum(dim=-1, keepdim=True)
    return weights @ V, weights
