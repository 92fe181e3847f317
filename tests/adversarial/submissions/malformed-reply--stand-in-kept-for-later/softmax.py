"""A softmax along the wrong axis (dim 0 always): a catalogued mistake."""
import torch


def softmax(scores, dim=-1):
    exps = torch.exp(scores - scores.amax(dim=0, keepdim=True))
    return exps / exps.sum(dim=0, keepdim=True)
