"""Exercise `scaled_scores`: steps 1 and 2 of the worked example, score and scale."""
import math

import torch


def scaled_scores(Q: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    # .mT is the matrix transpose: it flips only the last two dims, batches stay put
    return torch.matmul(Q, K.mT).div(math.sqrt(K.shape[-1]))
