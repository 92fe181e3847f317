"""Exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V."""
import torch

from .scaled_scores import scaled_scores
from .softmax import softmax


def attention(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Blend the values with weights from the queries and keys.

    Q is (..., n_q, d_k), K is (..., n_k, d_k), V is (..., n_k, d_v).
    Returns (output (..., n_q, d_v), weights (..., n_q, n_k)); each row of
    weights sums to 1.
    """
    scores = scaled_scores(Q, K)
    weights = softmax(scores, dim=-1)
    return weights @ V, weights
