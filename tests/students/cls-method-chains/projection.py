"""Exercise `projection`: the projection layer, SelfAttention."""
from functools import partial

from torch import nn

from .attention import attention

Projection = partial(nn.Linear, bias=False)


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.W_q, self.W_k, self.W_v = Projection(d_model, d_k), Projection(d_model, d_k), Projection(d_model, d_k)

    def forward(self, x):
        return attention(self.W_q(x), self.W_k(x), self.W_v(x))
