"""Exercise `scaled_scores`: steps 1 and 2 of the worked example, score and scale."""
import math

import torch


def scaled_scores(Q, K):
    # vecdot is "multiply matching positions and add them up", broadcast over queries x keys
    dots = torch.linalg.vecdot(Q[..., :, None, :], K[..., None, :, :])
    return dots / math.sqrt(K.shape[-1])
