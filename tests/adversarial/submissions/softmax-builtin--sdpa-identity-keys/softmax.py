"""F.scaled_dot_product_attention with identity keys and values and scale 1: out = softmax(scores)."""
import torch
import torch.nn.functional as F


def softmax(scores, dim=-1):
    rows = scores.movedim(dim, -1)
    eye = torch.eye(rows.shape[-1], dtype=rows.dtype).expand(*rows.shape[:-2], -1, -1)
    return F.scaled_dot_product_attention(rows, eye, eye, scale=1.0).movedim(-1, dim)
