"""The layer with einsum against its own weight matrices and a softmax by hand."""
import math

import torch
from torch import nn


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_k = nn.Linear(d_model, d_k, bias=False)
        self.W_v = nn.Linear(d_model, d_k, bias=False)
        self.d_k = d_k

    def forward(self, x):
        q = torch.einsum("...td,kd->...tk", x, self.W_q.weight)
        k = torch.einsum("...td,kd->...tk", x, self.W_k.weight)
        v = torch.einsum("...td,kd->...tk", x, self.W_v.weight)
        s = torch.einsum("...ik,...jk->...ij", q, k) / math.sqrt(self.d_k)
        s = s - s.amax(dim=-1, keepdim=True)
        p = s.exp()
        p = p / p.sum(dim=-1, keepdim=True)
        out = torch.einsum("...ij,...jk->...ik", p, v)
        return out, p
