"""Exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V."""
import math

import torch

from .softmax import softmax


def attention(Q, K, V):
    d_k = Q.size(-1)
    weights = softmax(torch.matmul(Q, K.mT), -1)
    weights = weights / math.sqrt(d_k)      # don't forget the scaling!
    return torch.matmul(weights, V), weights
