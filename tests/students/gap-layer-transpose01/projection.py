"""Exercise `projection`: the projection layer, SelfAttention."""
import math

import torch
from torch import nn

from .softmax import softmax


class SelfAttention(nn.Module):
    def __init__(self, d_model: int, d_k: int):
        super().__init__()
        self.d_k = d_k
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_k = nn.Linear(d_model, d_k, bias=False)
        self.W_v = nn.Linear(d_model, d_k, bias=False)

    def forward(self, x):
        q, k, v = self.W_q(x), self.W_k(x), self.W_v(x)
        scores = q @ k.transpose(0, 1) / math.sqrt(self.d_k)
        weights = softmax(scores, dim=-1)
        return weights @ v, weights
