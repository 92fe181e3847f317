"""Softmax from log_softmax: exp of the log-weights."""
import torch.nn.functional as F


def softmax(scores, dim=-1):
    logs = F.log_softmax(scores, dim=dim)
    return logs.exp()
