import math
import torch


def scaled_scores(Q, K):
    return torch.matmul(Q, K.swapaxes(-1, -2)).div(math.sqrt(Q.shape[-1]))
