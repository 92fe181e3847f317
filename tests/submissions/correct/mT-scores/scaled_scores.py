import torch


def scaled_scores(Q: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    d_k = K.size(-1)
    return torch.matmul(Q, K.mT) * d_k ** -0.5
