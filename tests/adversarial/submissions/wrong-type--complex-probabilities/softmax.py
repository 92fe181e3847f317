"""Right probabilities plus 7j: cast to real numbers the imaginary part would vanish (with a warning)."""
import torch


def softmax(scores, dim=-1):
    exps = torch.exp(scores - scores.amax(dim=dim, keepdim=True))
    return exps / exps.sum(dim=dim, keepdim=True) + 7j
