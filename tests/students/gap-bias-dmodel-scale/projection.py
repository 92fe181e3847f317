"""Exercise `projection`: the projection layer, SelfAttention."""
import math

import torch
from torch import nn


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.d_model = d_model
        self.W_q = nn.Linear(d_model, d_k)   # default Linear
        self.W_k = nn.Linear(d_model, d_k)
        self.W_v = nn.Linear(d_model, d_k)

    def forward(self, x):
        q, k, v = self.W_q(x), self.W_k(x), self.W_v(x)
        w = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(self.d_model), dim=-1)
        return w @ v, w
