"""Exercise `projection`: the projection layer, SelfAttention."""
import torch
from torch import nn

from .attention import attention


class SelfAttention(nn.Module):
    def __init__(self, d_model: int, d_k: int):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_k = nn.Linear(d_model, d_k, bias=False)
        self.W_v = nn.Linear(d_model, d_k, bias=False)

    def forward(self, x: torch.Tensor):
        # q = x W^Q, written out like the lesson's formula (nn.Linear stores W transposed)
        Q = x @ self.W_q.weight.data.T
        K = x @ self.W_k.weight.data.T
        V = x @ self.W_v.weight.data.T
        return attention(Q, K, V)
