"""The totals lose their dimension and get it back with unsqueeze; the shift is added."""
import torch


def softmax(scores, dim=-1):
    e = torch.exp(scores - scores.amax(dim=dim, keepdim=True))
    total = e.sum(dim=dim)
    weights = e / total.unsqueeze(dim)
    return weights * scores.amax(dim=dim, keepdim=True).exp()
