"""Exercise `projection`: the projection layer, SelfAttention."""
import torch
from torch import nn


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.W_q, self.W_k, self.W_v = (nn.Linear(d_model, d_k, bias=False) for _ in range(3))
        self.scale = d_k ** -0.5

    def forward(self, x):
        keys_t = self.W_k(x).permute(1, 0)
        w = torch.softmax(self.W_q(x).matmul(keys_t) * self.scale, dim=-1)
        return w.matmul(self.W_v(x)), w
