"""The powers named but never raised: an alias of the shift."""
import torch


def softmax(scores, dim=-1):
    shifted = scores - torch.amax(scores, dim=dim, keepdim=True)
    powers = shifted
    return powers / powers.sum(dim=dim, keepdim=True)
