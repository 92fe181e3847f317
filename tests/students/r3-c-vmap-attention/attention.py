"""Exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V.

I write it for ONE sentence and let torch.func.vmap handle the batch.
"""
import torch
from torch.func import vmap

from .scaled_scores import scaled_scores
from .softmax import softmax


def _one_sentence(q, k, v):
    w = softmax(scaled_scores(q, k), dim=-1)
    return w @ v, w


def attention(Q, K, V):
    *batch, n_q, _ = Q.shape
    if not batch:
        return _one_sentence(Q, K, V)
    # fold every leading dim into one, vmap over it, unfold again
    q = Q.reshape(-1, *Q.shape[-2:])
    k = K.reshape(-1, *K.shape[-2:])
    v = V.reshape(-1, *V.shape[-2:])
    out, w = vmap(_one_sentence)(q, k, v)
    return out.reshape(*batch, *out.shape[-2:]), w.reshape(*batch, *w.shape[-2:])
