import torch


def softmax(scores: torch.Tensor, dim: int = -1) -> torch.Tensor:
    return torch.exp(scores - torch.logsumexp(scores, dim=dim, keepdim=True))
