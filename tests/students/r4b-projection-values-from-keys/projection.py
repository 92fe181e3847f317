"""Exercise `projection`: the projection layer, SelfAttention."""
import torch
from torch import nn

from .attention import attention


class SelfAttention(nn.Module):
    """Self-attention with learned query, key and value projections."""

    def __init__(self, d_model: int, d_k: int):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_k, bias=False)   # what I want
        self.W_k = nn.Linear(d_model, d_k, bias=False)   # what I offer
        self.W_v = nn.Linear(d_model, d_k, bias=False)   # what I hand over

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        queries = self.W_q(x)
        keys = self.W_k(x)
        values = self.W_k(x)
        return attention(queries, keys, values)
