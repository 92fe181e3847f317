"""Exercise `scaled_scores`: steps 1 and 2 of the worked example, score and scale."""
import math

import torch


def scaled_scores(Q: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    keys_as_columns = K.permute(1, 0)           # Kᵀ: rows become columns
    return torch.mm(Q, keys_as_columns) / math.sqrt(K.shape[-1])
