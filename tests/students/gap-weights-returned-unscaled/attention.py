"""Exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V."""
import math

import torch

from .softmax import softmax


def attention(Q, K, V):
    raw = Q @ K.transpose(-2, -1)
    weights = softmax(raw, dim=-1)                        # to show, for the plots
    blend = softmax(raw / math.sqrt(Q.shape[-1]), dim=-1)  # the real one
    return blend @ V, weights
