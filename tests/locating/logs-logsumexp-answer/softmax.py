"""Softmax worked in logarithms; the answer is left as log-weights."""
import torch


def softmax(scores, dim=-1):
    log_total = torch.logsumexp(scores, dim=dim, keepdim=True)
    log_weights = scores - log_total
    return log_weights
