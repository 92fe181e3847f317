import math
import torch


def attention(Q, K, V):
    weights = torch.softmax(Q @ K.mT, dim=-1) / math.sqrt(K.shape[-1])
    return weights @ V, weights
