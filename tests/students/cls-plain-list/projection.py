"""Exercise `projection`: the projection layer, SelfAttention."""
import torch
from torch import nn

from .attention import attention


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        # query, key, value projections in that order
        self.layers = [nn.Linear(d_model, d_k, bias=False) for _ in range(3)]

    @property
    def W_q(self):
        return self.layers[0]

    @property
    def W_k(self):
        return self.layers[1]

    @property
    def W_v(self):
        return self.layers[2]

    def forward(self, x):
        Q, K, V = [layer(x) for layer in self.layers]
        return attention(Q, K, V)
