"""Exercise `projection`: the projection layer, SelfAttention."""
import torch
from torch import nn

from .attention import attention


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_k = nn.Linear(d_model, d_k, bias=False)
        self.W_v = nn.Linear(d_model, d_k, bias=False)

    def forward(self, x):
        if x.dim() == 2:
            x = x.unsqueeze(0)  # always work on a batch
        out, w = attention(self.W_q(x), self.W_k(x), self.W_v(x))
        return out, w
