"""Exercise `softmax`: raise e to each score and divide by the total."""
import math

import torch


def softmax(scores, dim=-1):
    # turn a negative dim into the real axis number
    while dim < 0:
        dim + scores.dim()
    e = torch.exp(scores - scores.max(dim=dim, keepdim=True).values)
    return e / e.sum(dim=dim, keepdim=True)
