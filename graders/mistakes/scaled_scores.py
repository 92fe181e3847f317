"""How each scaled_scores mistake shows in the numbers: the reference computation with its switches.

Trusted grader code (see attnkit/grading/models.py); never handed out.
"""
import math

import torch

LESSON_D_K = 2  # the worked example's key length: code that only works there divides by √2 whatever d_k is


def flipped(K: torch.Tensor, f) -> torch.Tensor:
    """Kᵀ over the last two dimensions, or as a 2-D-only transpose treats a batched K."""
    return f.choose("scores-batch-transpose", K.transpose(-2, -1),
                    [K.permute(*reversed(range(K.ndim))), K.transpose(0, 1)])


def scaled_scores(f, Q: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    left, right = (K, Q) if f.on("scores-transposed") else (Q, K)
    scores = f.step("dot products", left @ flipped(right, f))
    d_k = f.step("d_k", K.shape[-1])
    f.step("√d_k", math.sqrt(d_k))  # numbers a student's code holds on the way to the scale (so they are right)
    if f.on("scores-missing-scale"):
        return f.step("scale", scores)
    if f.on("scores-scale-by-dk"):
        return f.step("scale", scores / d_k)
    if f.on("hard-coded"):
        return f.step("scale", scores / math.sqrt(LESSON_D_K))
    tokens = sorted({K.shape[-2], K.shape[0], Q.shape[-2], Q.shape[0]} - {d_k})
    scales = [r for n in tokens for r in (math.sqrt(n), n) if not math.isclose(r, math.sqrt(d_k))]
    scale = f.choose("scores-scale-by-n-tokens", math.sqrt(d_k), scales)
    return f.step("scale", scores / scale)
