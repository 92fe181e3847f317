"""Exercise `projection`: the projection layer, SelfAttention."""
import torch
from torch import nn

from .attention import attention


class SelfAttention(nn.Module):
    """Self-attention with learned query, key and value projections."""

    def __init__(self, d_model: int, d_k: int):
        super().__init__()
        # Three learned projections: one baker, three facts (question, label, goods).
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_k = nn.Linear(d_model, d_k, bias=False)
        self.W_v = nn.Linear(d_model, d_k, bias=False)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """x is (tokens, d_model) or (batch, tokens, d_model).

        Returns (output (..., tokens, d_k), weights (..., tokens, tokens)).
        """
        Q, K, V = self.W_q(x), self.W_k(x), self.W_v(x)  # (..., T, d_k) each
        return attention(Q, K, V)
