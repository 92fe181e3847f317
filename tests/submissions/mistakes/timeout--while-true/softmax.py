import torch


def softmax(scores, dim=-1):
    exps = torch.exp(scores - scores.amax(dim=dim, keepdim=True))
    total = exps.sum(dim=dim, keepdim=True)
    while (total > 0).all():
        total = total * 1.0
    return exps / total
