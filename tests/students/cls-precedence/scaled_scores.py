"""Exercise `scaled_scores`: steps 1 and 2 of the worked example, score and scale."""
import torch


def scaled_scores(Q, K):
    d_k = K.shape[-1]
    return torch.matmul(Q, K.transpose(-2, -1)) / d_k ** 1/2      # square root = power 1/2
