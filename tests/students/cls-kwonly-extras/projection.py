"""Exercise `projection`: the projection layer, SelfAttention."""
from __future__ import annotations

import torch
from torch import Tensor, nn

from .attention import attention


class SelfAttention(nn.Module):
    """Self-attention with three learned projections, a temperature and (unused) dropout."""

    def __init__(self, d_model: int, d_k: int, *, dropout: float = 0.0) -> None:
        super().__init__()
        self.W_q: nn.Linear = nn.Linear(d_model, d_k, bias=False)
        self.W_k: nn.Linear = nn.Linear(d_model, d_k, bias=False)
        self.W_v: nn.Linear = nn.Linear(d_model, d_k, bias=False)
        # a fixed temperature of 1 (a buffer, not learned) so I can sharpen the map in experiments
        self.register_buffer("temperature", torch.ones(()))
        self.dropout = nn.Dropout(p=dropout)

    def forward(self, x: Tensor) -> tuple[Tensor, Tensor]:
        Q: Tensor = self.W_q(x) / self.temperature
        K: Tensor = self.W_k(x)
        V: Tensor = self.W_v(x)
        output, weights = attention(Q, K, V)
        return self.dropout(output), weights
