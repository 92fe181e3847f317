"""Exercise `projection` with Reformer's shared query/key projection.

lucidrains/reformer-pytorch LSHSelfAttention:
    self.toqk = nn.Linear(dim, dim_heads, bias=False)
    self.tov = nn.Linear(dim, v_dim, bias=False)
    qk = self.toqk(x); v = self.tov(x)
Reformer ties queries and keys; W_k is kept because the exercise asks for it.
"""
import torch
from torch import nn

from .attention import attention


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_k, bias=False)   # toqk: shared query/key
        self.W_k = nn.Linear(d_model, d_k, bias=False)
        self.W_v = nn.Linear(d_model, d_k, bias=False)   # tov

    def forward(self, x):
        qk = self.W_q(x)
        v = self.W_v(x)
        return attention(qk, qk, v)
