import math

import torch


def scaled_scores(Q, K):
    return torch.einsum("...qd,...kd->...qk", Q, K) / math.sqrt(K.shape[-1])
