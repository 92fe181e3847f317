import torch


def scaled_scores(Q, K):
    return Q @ K.transpose(-1, -2) / K.shape[-1] ** 0.5
