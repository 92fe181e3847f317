import torch

from .scaled_scores import scaled_scores


def attention(Q, K, V):
    scores = scaled_scores(Q, K)
    weights = torch.zeros_like(scores).scatter(-1, scores.argmax(-1, keepdim=True), 1.0)
    return weights @ V, weights
