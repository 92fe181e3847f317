"""Exercise `softmax`, d2l's "softmax regression from scratch" version.

d2l.ai 4.4.1:
    def softmax(X):
        X_exp = torch.exp(X)
        partition = X_exp.sum(1, keepdims=True)
        return X_exp / partition  # The broadcasting mechanism is applied here
with its axis 1 made the dim argument.
"""
import torch


def softmax(X, dim=-1):
    X_exp = torch.exp(X)
    partition = X_exp.sum(dim, keepdims=True)
    return X_exp / partition  # The broadcasting mechanism is applied here
