"""Exercise `attention` (the exercise allows the library softmax here)."""
import math

import torch.nn.functional as F


def attention(Q, K, V):
    scores = Q @ K.transpose(-2, -1) / math.sqrt(K.size(-1))
    weights = F.softmax(scores, dim=-1)
    return weights @ V, weights
