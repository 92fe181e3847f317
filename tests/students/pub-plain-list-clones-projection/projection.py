"""Exercise `projection` in the shape of the Annotated Transformer's MultiHeadedAttention, one head.

harvardnlp/annotated-transformer:
    def clones(module, N):
        "Produce N identical layers."
        return nn.ModuleList([copy.deepcopy(module) for _ in range(N)])
    ...
    query, key, value = [lin(x) for lin, x in zip(self.linears, (query, key, value))]
Three linears (the fourth, the output projection, is not in the lesson); W_q, W_k, W_v name them.
"""
import copy

import torch
from torch import nn

from .attention import attention


def clones(module, N):
    "Produce N identical layers."
    return [copy.deepcopy(module) for _ in range(N)]


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.d_k = d_k
        self.linears = clones(nn.Linear(d_model, d_k, bias=False), 3)
        for lin in self.linears:
            lin.reset_parameters()  # deepcopy gave three copies of the same weights

    @property
    def W_q(self):
        return self.linears[0]

    @property
    def W_k(self):
        return self.linears[1]

    @property
    def W_v(self):
        return self.linears[2]

    def forward(self, x):
        query, key, value = [lin(x) for lin, x in zip(self.linears, (x, x, x))]
        return attention(query, key, value)
