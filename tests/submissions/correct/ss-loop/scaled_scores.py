import math
import torch


def scaled_scores(Q, K):
    """An explicit loop over every query and key, batch dims flattened."""
    d_k = K.shape[-1]
    q = Q.reshape(-1, Q.shape[-2], d_k)
    k = K.reshape(-1, K.shape[-2], d_k)
    out = torch.zeros(q.shape[0], q.shape[1], k.shape[1], dtype=Q.dtype)
    for b in range(q.shape[0]):
        for i in range(q.shape[1]):
            for j in range(k.shape[1]):
                out[b, i, j] = sum(q[b, i, m] * k[b, j, m] for m in range(d_k)) / math.sqrt(d_k)
    return out.reshape(*Q.shape[:-2], Q.shape[-2], K.shape[-2])
