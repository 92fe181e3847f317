"""Softmax of one row, and recursion down to the rows along dim."""
import torch


def softmax(scores, dim=-1):
    if dim % scores.dim() != scores.dim() - 1:
        return softmax(scores.movedim(dim, -1)).movedim(-1, dim)
    if scores.dim() > 1:
        return torch.stack([softmax(row) for row in scores])
    shift = scores - torch.max(scores)
    raised = torch.exp(shift)
    return raised / torch.sum(raised)
