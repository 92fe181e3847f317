"""Softmax through the student's own attention (which may use the built-in): identity keys and values."""
import math

import torch


def softmax(scores, dim=-1):
    from .attention import attention

    rows = scores.movedim(dim, -1)
    eye = torch.eye(rows.shape[-1], dtype=rows.dtype).expand(*rows.shape[:-2], -1, -1)
    _, weights = attention(rows * math.sqrt(rows.shape[-1]), eye, eye)
    return weights.movedim(-1, dim)
