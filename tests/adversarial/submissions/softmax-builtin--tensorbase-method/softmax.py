"""The tensor method, taken from the C base class of every tensor rather than from the tensor."""
import torch


def softmax(scores, dim=-1):
    return torch._C.TensorBase.softmax(scores, dim)
