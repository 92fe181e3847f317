"""Exercise `softmax`, tfernd/sd-fused sd/utils/softmax.py.

Softmax in float32 whatever comes in, then back to the input's dtype. (The original takes dim
keyword-only: `def softmax(x: Tensor, *, dim: int)`; made positional for the exercise.)
"""
from __future__ import annotations

# import torch
from torch import Tensor


def softmax(x: Tensor, dim: int = -1) -> Tensor:
    """In-place softmax implementation."""

    dtype = x.dtype

    x = x.float()
    x = x.softmax(dim)
    # x = x.softmax(dim, dtype=torch.float32) # ? is this better?
    x = x.to(dtype)

    return x
