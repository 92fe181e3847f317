"""Exercise `scaled_scores`: steps 1 and 2 of the worked example, score and scale."""
import math

import torch


def scaled_scores(Q, K):
    # broadcast every query against every key, multiply matching positions and add them up
    # Q: (..., n_q, 1, d)   K: (..., 1, n_k, d)   ->  (..., n_q, n_k, d) -> sum over d
    products = Q.unsqueeze(-2) * K.unsqueeze(-3)
    print("products", products.shape)
    dots = products.sum(dim=-1)
    return dots / math.sqrt(K.shape[-1])
