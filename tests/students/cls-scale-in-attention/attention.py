"""Exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V."""
import math

import torch

from .scaled_scores import scaled_scores
from .softmax import softmax


def attention(Q, K, V):
    scores = scaled_scores(Q, K) / math.sqrt(K.shape[-1])   # Step 2 happens here
    weights = softmax(scores, dim=-1)
    return weights @ V, weights
