"""Exercise `attention`, calling my softmax on the scaled scores."""
import math

import torch

from .softmax import softmax


def attention(Q, K, V):
    scores = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(K.shape[-1])
    weights = softmax(scores, -1)
    return torch.matmul(weights, V), weights
