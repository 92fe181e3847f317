import torch
from torch import nn
from .attention import attention


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.heads = nn.ModuleList(nn.Linear(d_model, d_k, bias=False) for _ in range(3))
        self.W_q, self.W_k, self.W_v = self.heads

    def forward(self, x):
        return attention(self.W_q(x), self.W_k(x), self.W_v(x))
