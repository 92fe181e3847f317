"""How each scores mistake shows in the numbers: the reference computation with its switches.

Trusted grader code; never handed out.
"""
import math

import torch


def scaled_scores(f, Q: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    left, right = (K, Q) if f.on("scores-flipped") else (Q, K)
    d_k = K.shape[-1]
    scale = 1.0 if f.on("scores-unscaled") else f.choose("scores-by-dk", math.sqrt(d_k), [d_k])
    return left @ right.transpose(-2, -1) / scale
