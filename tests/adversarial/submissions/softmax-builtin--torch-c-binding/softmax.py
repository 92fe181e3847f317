"""A private binding of torch._C to the same kernel."""
import torch


def softmax(scores, dim=-1):
    return torch._C._VariableFunctions._safe_softmax(scores, dim)
