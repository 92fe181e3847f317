"""Exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V."""
from __future__ import annotations

from typing import Any

import torch
from torch import Tensor

from .scaled_scores import scaled_scores
from .softmax import softmax


def attention(*tensors: Tensor, **options: Any) -> tuple[Tensor, Tensor]:
    """attention(Q, K, V, mask=None): the optional boolean mask hides keys (True = keep)."""
    Q, K, V = tensors
    scores = scaled_scores(Q, K)
    mask = options.get("mask")
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = softmax(scores, -1)
    return weights @ V, weights
