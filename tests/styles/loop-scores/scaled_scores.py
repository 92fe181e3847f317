"""Every query against every key with torch.dot, batches flattened first."""
import math

import torch


def scaled_scores(Q, K):
    front = Q.shape[:-2]
    qs = Q.reshape(-1, Q.shape[-2], Q.shape[-1])
    ks = K.reshape(-1, K.shape[-2], K.shape[-1])
    root = math.sqrt(Q.shape[-1])
    out = torch.zeros(qs.shape[0], qs.shape[1], ks.shape[1], dtype=Q.dtype)
    for b in range(qs.shape[0]):
        for i in range(qs.shape[1]):
            for j in range(ks.shape[1]):
                out[b, i, j] = torch.dot(qs[b, i], ks[b, j]) / root
    return out.reshape(*front, Q.shape[-2], K.shape[-2])
