"""Wrong on purpose: only the shipped conftest.py could make it pass."""
import torch

pytest_plugins = ["exercises.conftest"]


def softmax(scores, dim=-1):
    return torch.zeros_like(scores)
