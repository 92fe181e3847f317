import math
import torch


def attention(Q, K, V):
    weights = torch.softmax(Q @ K.mT / math.sqrt(K.shape[-1]), dim=0)
    return weights @ V, weights
