"""Exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V."""
import torch

from .scaled_scores import scaled_scores
from .softmax import softmax


def attention(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    weights = softmax(scaled_scores(Q, K), dim=-1)
    output = torch.einsum("...qk,...kv->...qv", weights, V)
    return output, weights
