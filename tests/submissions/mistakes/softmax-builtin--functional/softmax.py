import torch.nn.functional as F


def softmax(scores, dim=-1):
    return F.softmax(scores, dim=dim)
