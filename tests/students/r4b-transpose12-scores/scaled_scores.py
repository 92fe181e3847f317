"""Exercise `scaled_scores`: steps 1 and 2 of the worked example, score and scale."""
import math

import torch


def scaled_scores(Q: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    # batch first: K is (batch, n_k, d_k), so swap n_k and d_k
    return Q @ K.transpose(1, 2) / math.sqrt(K.shape[2])
