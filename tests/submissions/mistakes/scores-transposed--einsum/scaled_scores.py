import torch


def scaled_scores(Q, K):
    return torch.einsum("...kd,...qd->...kq", K, Q) / K.shape[-1] ** 0.5
