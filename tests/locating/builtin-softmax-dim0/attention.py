"""Attention in three lines with torch's own softmax, which runs down the columns."""
import torch


def attention(Q, K, V):
    scores = Q @ K.transpose(-2, -1) / K.shape[-1] ** 0.5
    weights = torch.softmax(scores, dim=0)
    return weights @ V, weights
