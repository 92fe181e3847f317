"""Numpy inside; the largest score of each row lost its axis."""
import numpy as np
import torch


def softmax(scores, dim=-1):
    a = scores.numpy()
    m = np.max(a, axis=dim)
    p = np.exp(a - m)
    w = p / p.sum(axis=dim, keepdims=True)
    return torch.from_numpy(w)
