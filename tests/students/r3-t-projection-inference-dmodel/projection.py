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

    @torch.inference_mode()   # faster, read it in a blog post
    def forward(self, x):
        Q, K, V = self.W_q(x), self.W_k(x), self.W_v(x)
        d = self.W_q.in_features
        scores = Q @ K.transpose(-2, -1) / math.sqrt(d)
        weights = torch.softmax(scores, dim=-1)
        return weights @ V, weights
