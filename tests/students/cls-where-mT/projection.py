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
        # learnable sharpness of the attention map, stored as a log so it stays positive;
        # exp(0) = 1, so at the start it changes nothing
        self.log_sharpness = nn.Parameter(torch.zeros(1))

    def forward(self, x: torch.Tensor):
        q = self.W_q(x) * self.log_sharpness.exp()
        k = self.W_k(x)
        v = self.W_v(x)
        return attention(q, k, v)
