"""Exercise `projection`: the projection layer, SelfAttention."""
from torch import nn

from .attention import attention


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.sizes = [d_k, d_k, d_k]
        self.proj = nn.Linear(d_model, sum(self.sizes), bias=False)

    def _piece(self, i):
        return self.proj.weight.split(self.sizes)[i].clone()

    W_q = property(lambda self: self._piece(0))
    W_k = property(lambda self: self._piece(1))
    W_v = property(lambda self: self._piece(2))

    def forward(self, x):
        q, k, v = self.proj(x).split(self.sizes, dim=-1)
        return attention(q, k, v)
