"""Totals without keepdim, put back with [..., None] on the last axis; the quotient is inverted."""
import torch


def softmax(scores, dim=-1):
    x = scores.movedim(dim, -1)
    e = torch.exp(x - x.max(dim=-1, keepdim=True).values)
    sums = e.sum(-1)
    out = sums[..., None] / e
    return out.movedim(-1, dim)
