"""Exercise `softmax`, a numpy-habits torch softmax found by code search.

    def softmax(x):
        max = torch.max(x, axis=-1)
        normalized = x - max[:, None]
        e = torch.exp(normalized)
        s = torch.sum(e, axis=-1)
        y = torch.div(e, s[:, None])
        return y
"""
import torch


def softmax(x, dim=-1):
    max = torch.max(x, axis=dim)
    normalized = x - max[:, None]
    e = torch.exp(normalized)
    s = torch.sum(e, axis=dim)
    y = torch.div(e, s[:, None])
    return y
