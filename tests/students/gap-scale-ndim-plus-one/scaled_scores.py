"""Exercise `scaled_scores`: steps 1 and 2, score and scale, Q Kᵀ / √d_k."""
import torch


def scaled_scores(Q: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    raw = torch.matmul(Q, K.mT)
    return raw / (Q.ndim + 1) ** 0.5  # misread "d" as the number of dimensions, plus one
