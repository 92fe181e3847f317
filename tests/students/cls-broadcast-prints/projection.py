"""Exercise `projection`: the projection layer, SelfAttention."""
import math

import torch
from torch import nn


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_k = nn.Linear(d_model, d_k, bias=False)
        self.W_v = nn.Linear(d_model, d_k, bias=False)
        print("layer", d_model, "->", d_k)

    def forward(self, x):
        Q, K, V = self.W_q(x), self.W_k(x), self.W_v(x)
        last, before = K.dim() - 1, K.dim() - 2
        Kt = K.permute(*range(K.dim() - 2), last, before)   # flip the last two dims only
        scores = Q @ Kt / math.sqrt(Q.shape[-1])
        weights = torch.softmax(scores, dim=-1)
        print("attention map", weights.shape)
        return weights @ V, weights
