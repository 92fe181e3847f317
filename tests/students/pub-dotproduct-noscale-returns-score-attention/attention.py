"""Exercise `attention` from the DotProductAttention(dim, scale) module found in several speech repos
(sooftware-style "attentions"):

    if scale:
        self.sqrt_dim = np.sqrt(dim)
    else:
        self.sqrt_dim = 1
    ...
    score = torch.matmul(query, key.transpose(2, 3)) / self.sqrt_dim
    attn = F.softmax(score, -1)
"""
import numpy as np
import torch
import torch.nn.functional as F


def attention(query, key, value, scale=False):
    sqrt_dim = np.sqrt(key.size(-1)) if scale else 1
    score = torch.matmul(query, key.transpose(-2, -1)) / sqrt_dim
    attn = F.softmax(score, -1)
    context = torch.matmul(attn, value)
    return context, score
