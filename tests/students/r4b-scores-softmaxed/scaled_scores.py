"""Exercise `scaled_scores`: steps 1 and 2 of the worked example, score and scale."""
import math

import torch

from .softmax import softmax


def scaled_scores(Q: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    """Every query-key score, scaled so the rows are comparable."""
    raw = Q @ K.transpose(-2, -1)
    scaled = raw / math.sqrt(K.shape[-1])
    # put every row on the same 0..1 scale, adding up to 1
    return softmax(scaled, dim=-1)
