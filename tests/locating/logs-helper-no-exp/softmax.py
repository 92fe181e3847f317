"""A log-softmax helper, right, and a caller that forgets to undo the logarithm."""
import torch


def _log_softmax(x, dim):
    top = x.amax(dim=dim, keepdim=True)
    return x - top - torch.log(torch.exp(x - top).sum(dim=dim, keepdim=True))


def softmax(scores, dim=-1):
    logs = _log_softmax(scores, dim)
    return logs
