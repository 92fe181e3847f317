"""Exercise `projection`: the projection layer, SelfAttention."""
import torch
import torch.nn.functional as F
from torch import nn

from .attention import attention


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.d_k = d_k
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_k = nn.Linear(d_model, d_k, bias=False)
        self.W_v = nn.Linear(d_model, d_k, bias=False)

    def forward(self, x):
        # one big matmul instead of three (like fused qkv in real models)
        W = torch.cat([self.W_q.weight, self.W_k.weight, self.W_v.weight], dim=0)  # (3 d_k, d_model)
        Q, K, V = F.linear(x, W).split(self.d_k, dim=-1)
        return attention(Q, K, V)
