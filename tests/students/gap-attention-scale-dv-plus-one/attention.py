"""Exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V."""
import numpy as np
import torch


def attention(Q, K, V):
    q, k, v = (np.asarray(t, dtype=np.float64) for t in (Q, K, V))
    s = np.einsum("...qd,...kd->...qk", q, k) / np.sqrt(v.shape[-1] + 1)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w /= w.sum(axis=-1, keepdims=True)
    return torch.from_numpy(w @ v), torch.from_numpy(w)
