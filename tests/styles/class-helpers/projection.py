"""The layer as a class whose forward calls small helper methods."""
import math

import torch
from torch import nn


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_k = nn.Linear(d_model, d_k, bias=False)
        self.W_v = nn.Linear(d_model, d_k, bias=False)
        self.root = math.sqrt(d_k)

    def _project(self, x):
        queries = self.W_q(x)
        keys = self.W_k(x)
        values = self.W_v(x)
        return queries, keys, values

    def _scores(self, queries, keys):
        raw = queries @ keys.transpose(-2, -1)
        return raw / self.root

    def _weights(self, scores):
        shifted = scores - scores.amax(dim=-1, keepdim=True)
        e = torch.exp(shifted)
        return e / e.sum(dim=-1, keepdim=True)

    def forward(self, x):
        queries, keys, values = self._project(x)
        scores = self._scores(queries, keys)
        weights = self._weights(scores)
        return weights @ values, weights
