"""Scores for one grid, and recursion over whatever batch dimensions come in front."""
import math

import torch


def scaled_scores(Q, K):
    if Q.dim() > 2:
        return torch.stack([scaled_scores(q, k) for q, k in zip(Q, K)])
    n = K.shape[-1]
    keys_t = K.transpose(-2, -1)
    products = Q @ keys_t
    return products / math.sqrt(n)
