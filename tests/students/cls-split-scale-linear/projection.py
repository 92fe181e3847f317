"""Exercise `projection`: the projection layer, SelfAttention."""
import torch
import torch.nn.functional as F
from torch import nn

from .attention import attention


class SelfAttention(nn.Module):
    def __init__(self, d_model: int, d_k: int):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_k = nn.Linear(d_model, d_k, bias=False)
        self.W_v = nn.Linear(d_model, d_k, bias=False)

    def forward(self, x: torch.Tensor):
        # q = x W^Q with the layer's own weight tensors (F.linear multiplies by weight.T)
        Q = F.linear(x, self.W_q.weight)
        K = F.linear(x, self.W_k.weight)
        V = F.linear(x, self.W_v.weight)
        return attention(Q, K, V)
