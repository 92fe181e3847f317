"""Exercise `scaled_scores`: steps 1 and 2 of the worked example, score and scale."""
import torch


def scaled_scores(Q: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    # split the 1/√d_k between both sides: (Q / d_k^¼)(K / d_k^¼)ᵀ = Q Kᵀ / √d_k
    quarter = K.shape[-1] ** -0.25
    return torch.matmul(Q * quarter, (K * quarter).transpose(-1, -2))
