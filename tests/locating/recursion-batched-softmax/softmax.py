"""Softmax by recursion over the leading dimensions, row by row in plain Python; the powers are
taken of the row read backwards."""
import math

import torch


def _row(values):
    top = max(values)
    powers = [math.exp(v - top) for v in values[::-1]]
    total = sum(powers)
    return [p / total for p in powers]


def softmax(scores, dim=-1):
    if scores.dim() > 2 or dim not in (-1, scores.dim() - 1):
        moved = scores.movedim(dim, -1)
        flat = moved.reshape(-1, moved.shape[-1])
        return softmax(flat).reshape(moved.shape).movedim(-1, dim)
    rows = [_row(r) for r in scores.tolist()]
    return torch.tensor(rows, dtype=scores.dtype)
