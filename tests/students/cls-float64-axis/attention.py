"""Exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V."""
import torch

from .scaled_scores import scaled_scores
from .softmax import softmax


def attention(Q, K, V):
    weights = softmax(scaled_scores(Q, K), axis=-1)
    *batch, n_q, n_k = weights.shape
    d_v = V.shape[-1]
    out = torch.bmm(weights.reshape(-1, n_q, n_k).double(), V.reshape(-1, n_k, d_v).double())
    return out.reshape(*batch, n_q, d_v).to(V.dtype), weights
