"""Exercise `projection`: the projection layer, SelfAttention."""
import torch
from torch import nn

from .softmax import softmax


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.dims = (d_model, d_k)
        self.W_q = nn.Linear(d_model, d_k)
        self.W_k = nn.Linear(d_model, d_k)
        self.W_v = nn.Linear(d_model, d_k)

    def forward(self, x):
        d_model, _ = self.dims
        q, k, v = (layer(x) for layer in (self.W_q, self.W_k, self.W_v))
        weights = softmax(torch.einsum("...id,...jd->...ij", q, k) / d_model ** 0.5, dim=-1)
        return torch.einsum("...ij,...jd->...id", weights, v), weights
