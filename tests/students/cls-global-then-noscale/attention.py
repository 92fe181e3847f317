"""Exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V."""
import torch

from .softmax import softmax


def attention(Q, K, V):
    scores = torch.matmul(Q, K.transpose(-2, -1))
    weights = softmax(scores, dim=-1)
    output = torch.matmul(weights, V)
    return output, weights
