"""The log-total by hand, added where it should be subtracted."""
import torch


def softmax(scores, dim=-1):
    m = scores.amax(dim=dim, keepdim=True)
    lse = m + torch.log(torch.exp(scores - m).sum(dim=dim, keepdim=True))
    return torch.exp(scores + lse)
