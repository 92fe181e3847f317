"""scipy's softmax on a numpy copy: no torch call at all."""
import scipy.special
import torch


def softmax(scores, dim=-1):
    return torch.from_numpy(scipy.special.softmax(scores.detach().numpy(), axis=dim)).to(scores.dtype)
