"""Exercise `projection`: the projection layer, SelfAttention."""
import math

import torch
import torch.nn.functional as F
from torch import nn


class SelfAttention(nn.Module):
    """One head of self-attention: W_q, W_k, W_v are three learned views of each token."""

    def __init__(self, embed_dim: int, head_dim: int):
        super().__init__()
        self.embed_dim, self.head_dim = embed_dim, head_dim
        self.W_q = nn.Linear(embed_dim, head_dim, bias=False)
        self.W_k = nn.Linear(embed_dim, head_dim, bias=False)
        self.W_v = nn.Linear(embed_dim, head_dim, bias=False)
        # the same three layers again, in order, so I can loop over them
        self.views = nn.ModuleList([self.W_q, self.W_k, self.W_v])
        self.scale = 1.0 / math.sqrt(head_dim)

    def project(self, x):
        """q = x W^Q, k = x W^K, v = x W^V, with the functional form of nn.Linear."""
        return tuple(F.linear(x, view.weight) for view in self.views)

    def forward(self, x):
        Q, K, V = self.project(x)
        scores = torch.matmul(Q, K.transpose(-1, -2)) * self.scale
        weights = F.softmax(scores, dim=-1)
        return torch.matmul(weights, V), weights

    @torch.no_grad()
    def attention_map(self, x):
        """Only the weights, for plotting."""
        return self.forward(x)[1]

    def extra_repr(self):
        return f"embed_dim={self.embed_dim}, head_dim={self.head_dim}"
