"""Scores in numpy: matmul against the keys swapped on their last two axes."""
import numpy as np
import torch


def scaled_scores(Q, K):
    q = Q.detach().numpy()
    k = K.detach().numpy()
    key_size = k.shape[-1]
    flipped = np.swapaxes(k, -1, -2)
    raw = np.matmul(q, flipped)
    scaled = raw / np.sqrt(key_size)
    return torch.tensor(scaled, dtype=Q.dtype)
