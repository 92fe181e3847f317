"""Exercise `softmax` through log-sum-exp.

ChaosAIVision/VGG16-from-scratch-Pytorch utils/activations.py has
    def log_softmax(x):
        return x - torch.logsumexp(x, dim= 1,keepdim= True)
so softmax is the exponential of that, along `dim` instead of 1.
"""
import torch


def log_softmax(x, dim=1):
    return x - torch.logsumexp(x, dim=dim, keepdim=True)


def softmax(x, dim=-1):
    return torch.exp(log_softmax(x, dim))
