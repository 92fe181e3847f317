"""Exercise `causal`: self-attention with no peeking at later tokens."""
import torch

from .scores import scaled_scores


def causal_attention(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Blend the values, each token looking only at itself and earlier tokens.

    Q and K are (..., n, d_k), V is (..., n, d_v). Returns (output (..., n, d_v),
    weights (..., n, n)); row i of the weights is zero after column i and sums to 1.
    """
    scores = scaled_scores(Q, K)
    n = scores.shape[-1]
    later = torch.ones(n, n, dtype=torch.bool, device=scores.device).triu(1)
    weights = torch.softmax(scores.masked_fill(later, float("-inf")), dim=-1)
    return weights @ V, weights
