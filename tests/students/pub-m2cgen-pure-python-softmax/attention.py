"""Exercise `attention`: the library softmax here, since my list softmax cannot carry gradients."""
import math

import torch


def attention(Q, K, V):
    scores = Q @ K.transpose(-2, -1) / math.sqrt(K.shape[-1])
    weights = torch.softmax(scores, dim=-1)
    return weights @ V, weights
