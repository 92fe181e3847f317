"""Exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V."""
import math

import torch

from .softmax import softmax


def attention(Q, K, V):
    *batch, n_q, d_k = Q.shape
    n_k, d_v = V.shape[-2], V.shape[-1]
    q = Q.reshape(-1, n_q, d_k)
    k = K.reshape(-1, n_k, d_k)
    v = V.reshape(-1, n_k, d_v)
    scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(d_k)
    weights = softmax(scores, dim=2)
    output = torch.bmm(weights, v)
    return output.reshape(*batch, n_q, d_v), weights.reshape(*batch, n_q, n_k)
