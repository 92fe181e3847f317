"""Exercise `scaled_scores`: steps 1 and 2, score and scale."""
import torch


def scaled_scores(Q, K):
    d_k = torch.tensor(K.shape[-1], dtype=Q.dtype)
    return torch.matmul(Q, K.swapaxes(-1, -2)) * torch.rsqrt(d_k)
