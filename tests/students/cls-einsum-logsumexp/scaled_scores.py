"""Exercise `scaled_scores`: steps 1 and 2 of the worked example, score and scale."""
import math

import torch


def scaled_scores(Q: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    # q . k for every (query, key) pair; the ellipsis carries any batch dims through
    dots = torch.einsum("...qd,...kd->...qk", Q, K)
    return dots / math.sqrt(K.size(-1))
