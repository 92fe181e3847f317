"""Exercise `projection`: the projection layer, SelfAttention."""
import torch.nn.functional as F
from torch import nn

from .attention import attention


class SelfAttention(nn.Module):
    """One fused projection, as the big models do it; W_q, W_k, W_v are its three slices."""

    def __init__(self, d_model, d_k):
        super().__init__()
        self.d_k = d_k
        self.qkv = nn.Linear(d_model, 3 * d_k, bias=False)

    @property
    def W_q(self):
        return self.qkv.weight[: self.d_k]

    @property
    def W_k(self):
        return self.qkv.weight[self.d_k: 2 * self.d_k]

    @property
    def W_v(self):
        return self.qkv.weight[2 * self.d_k:]

    def forward(self, x):
        return attention(F.linear(x, self.W_q), F.linear(x, self.W_k), F.linear(x, self.W_v))
