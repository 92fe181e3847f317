"""Exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V."""
import torch

from .scaled_scores import scaled_scores
from .softmax import softmax


def attention(Q, K, V):
    weights = softmax(scaled_scores(Q, K), dim=-1)
    print("weights rows sum to", weights.sum(-1))
    # blend by broadcasting: (..., n_q, n_k, 1) * (..., 1, n_k, d_v), summed over the keys
    output = (weights.unsqueeze(-1) * V.unsqueeze(-3)).sum(dim=-2)
    return output, weights
