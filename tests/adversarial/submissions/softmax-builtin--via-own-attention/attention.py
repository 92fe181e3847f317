"""Exercise `attention`, right, with the built-in softmax (allowed here)."""
import math

import torch


def attention(Q, K, V):
    weights = torch.softmax(Q @ K.transpose(-2, -1) / math.sqrt(K.shape[-1]), dim=-1)
    return weights @ V, weights
