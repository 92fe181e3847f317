"""Exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V."""
import torch

from .scaled_scores import scaled_scores
from .softmax import softmax


def attention(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor):
    weights = softmax(scaled_scores(Q, K), dim=-1)      # (..., n_q, n_k)
    output = torch.matmul(weights, V)                   # (..., n_q, d_v)
    return output, weights
