"""Exercise `scaled_scores`: steps 1 and 2 of the worked example, score and scale."""
import torch


def scaled_scores(Q: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    d_k = K.shape[-1]
    # the dot product, literally: "multiply matching positions and add them up".
    # Q gets a key axis and K a query axis, so every query meets every key
    products = Q.unsqueeze(-2) * K.unsqueeze(-3)     # (..., n_q, n_k, d_k)
    return products.sum(dim=-1) * d_k ** -0.5
