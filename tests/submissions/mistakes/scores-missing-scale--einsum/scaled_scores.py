import torch


def scaled_scores(Q, K):
    return torch.einsum("...id,...jd->...ij", Q, K)
