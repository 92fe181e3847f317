"""Scaled scores with einsum, the scale kept as a number of its own."""
import math

import torch


def scaled_scores(Q, K):
    width = K.shape[-1]
    scale = 1 / math.sqrt(width)
    dots = torch.einsum("...id,...jd->...ij", Q, K)
    return dots * scale
