"""Exercise `projection`: the projection layer, SelfAttention."""
import torch
from torch import nn

from .attention import attention

ROLES = ("W_q", "W_k", "W_v")


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        for role in ROLES:
            setattr(self, role, nn.Linear(d_model, d_k))

    def forward(self, x):
        Q, K, V = (getattr(self, role)(x) for role in ROLES)
        return attention(Q, K, V)
