import torch


def softmax(scores, dim=-1):
    e = torch.exp(scores - scores.max())
    return e / e.sum(0)
