import math
import torch


def scaled_scores(Q, K):
    return torch.matmul(Q, K.T) / math.sqrt(K.shape[1])
