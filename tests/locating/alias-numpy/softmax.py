"""Numpy inside; the exponentials are the shifted scores under another name."""
import numpy as np
import torch


def softmax(scores, dim=-1):
    a = scores.numpy()
    centred = a - np.max(a, axis=dim, keepdims=True)
    exponentials = centred
    return torch.from_numpy(exponentials / np.sum(exponentials, axis=dim, keepdims=True))
