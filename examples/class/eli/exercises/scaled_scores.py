"""Exercise `scaled_scores`."""
import torch


def scaled_scores(Q, K):
    return Q @ K.transpose(-2, -1)
