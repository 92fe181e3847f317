"""Exercise `scaled_scores`: steps 1 and 2, score and scale."""
import math

import torch


def scaled_scores(Q, K):
    d_k = K.shape[-1]
    # scale the queries and the keys first so the products stay small
    Q_small = Q / math.sqrt(d_k)
    K_small = K / math.sqrt(d_k)
    return Q_small @ K_small.transpose(-2, -1)
