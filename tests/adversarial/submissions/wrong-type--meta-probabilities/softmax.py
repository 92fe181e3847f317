"""A meta tensor: the right shape and dtype, and no numbers at all."""
import torch


def softmax(scores, dim=-1):
    return torch.empty(scores.shape, dtype=scores.dtype, device="meta")
