"""Exercise `scaled_scores`: steps 1 and 2 of the worked example, score and scale."""
import math

import torch


def scaled_scores(Q, K):
    *batch, n_q, d_k = Q.shape
    n_k = K.shape[-2]
    # fold every batch dim into one so torch.bmm can take it, in float64 for accuracy
    q = Q.reshape(-1, n_q, d_k).to(torch.float64)
    k = K.reshape(-1, n_k, d_k).to(torch.float64)
    s = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(d_k)
    return s.reshape(*batch, n_q, n_k).to(Q.dtype)
