"""Exercise `projection`: the projection layer, SelfAttention."""
import torch
from torch import nn

from .attention import attention


class SelfAttention(nn.Module):
    def __init__(self, d_model: int, d_k: int):
        super().__init__()
        self.w = nn.Parameter(torch.randn(d_model, 3 * d_k) / d_model ** 0.5)

    W_q = property(lambda self: self.w.chunk(3, dim=-1)[0].T)
    W_k = property(lambda self: self.w.chunk(3, dim=-1)[1].T)
    W_v = property(lambda self: self.w.chunk(3, dim=-1)[2].T)

    def forward(self, x):
        q, k, v = (x @ self.w).chunk(3, dim=-1)
        return attention(q, k, v)
