"""Exercise `scaled_scores`: steps 1 and 2 of the worked example, score and scale."""
from __future__ import annotations

import math

import torch
from torch import Tensor


def scaled_scores(Q: Tensor, K: Tensor, /, *, scale: float | None = None) -> Tensor:
    """Q Kᵀ / √d_k; Q and K are positional-only, `scale` overrides 1/√d_k if given."""
    factor = scale if scale is not None else 1.0 / math.sqrt(K.shape[-1])
    return torch.matmul(Q, K.transpose(-2, -1)) * factor
