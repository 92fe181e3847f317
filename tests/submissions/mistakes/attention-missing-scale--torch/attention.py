import torch


def attention(Q, K, V):
    weights = torch.softmax(Q @ K.mT, dim=-1)
    return weights @ V, weights
