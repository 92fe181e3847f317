"""Exercise `scaled_scores`: steps 1 and 2, score and scale."""
import math

import torch


def scaled_scores(Q: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    """Every query-key dot product divided by √d_k.

    Q is (..., n_q, d_k), K is (..., n_k, d_k); the result is (..., n_q, n_k),
    row i holding query i's scores against every key.
    """
    d_k = K.shape[-1]
    return Q @ K.transpose(-2, -1) / math.sqrt(d_k)
