"""Exercise `softmax`: raise e to each score and divide by the total."""
import numpy as np
import torch


def softmax(scores, dim=-1):
    a = scores.numpy()
    m = np.max(a, axis=0, keepdims=True)
    e = np.exp(a - m)
    return torch.from_numpy(e / e.sum(axis=dim, keepdims=True))
