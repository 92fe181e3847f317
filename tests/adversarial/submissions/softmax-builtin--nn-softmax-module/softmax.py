"""The nn.Softmax layer."""
import torch


def softmax(scores, dim=-1):
    return torch.nn.Softmax(dim=dim)(scores)
