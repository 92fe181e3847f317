"""The scale kept on a line of its own, one over d_k where it should be one over its root."""
import torch


def scaled_scores(Q, K):
    d_k = K.shape[-1]
    factor = 1 / d_k
    return torch.matmul(Q, K.mT) * factor
