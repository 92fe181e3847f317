import torch


def softmax(scores, dim=-1):
    e = torch.exp(scores - scores.max(dim=dim, keepdim=True).values)
    return e / torch.sum(e, dim)
