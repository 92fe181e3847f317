"""Exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V."""
import math

import torch

from .softmax import softmax


def attention(Q, K, V):
    d_k = K.shape[-1]
    scores = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(d_k)
    weights = softmax(scores, dim=-1)
    return torch.matmul(weights, V), weights
