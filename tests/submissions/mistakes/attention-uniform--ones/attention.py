import torch


def attention(Q, K, V):
    weights = torch.ones(*Q.shape[:-1], K.shape[-2], dtype=Q.dtype) / K.shape[-2]
    return V.mean(dim=-2, keepdim=True).expand(*Q.shape[:-1], V.shape[-1]), weights
