"""Exercise `projection`: the projection layer, SelfAttention."""
from torch import nn

from .attention import attention


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        for name in ("W_q", "W_k", "W_v"):
            self.add_module(name, nn.Linear(d_model, d_k, bias=False))

    def forward(self, x):
        Q, K, V = (proj(x) for proj in (self.W_q, self.W_k, self.W_v))
        return attention(Q, K, V)
