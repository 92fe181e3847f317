"""Honest: widened to float64 for the arithmetic, then back to the input's dtype."""
import torch


def softmax(scores, dim=-1):
    wide = scores.to(torch.float64)
    exps = (wide - wide.amax(dim=dim, keepdim=True)).exp()
    return (exps / exps.sum(dim=dim, keepdim=True)).to(scores.dtype)
