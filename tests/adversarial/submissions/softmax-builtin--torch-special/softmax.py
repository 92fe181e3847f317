"""torch.special's softmax: plain student code, and a door the runtime recorder does not know by name."""
import torch


def softmax(scores, dim=-1):
    return torch.special.softmax(scores, dim)
