"""Exercise `projection`: learned Q, K, V in torch, the attention itself as in the numpy tutorial.

zedd-08/thesis-implementations (after machinelearningmastery.com/the-attention-mechanism-from-scratch):
    scores = Q @ K.transpose()
    weights = softmax(scores / K.shape[1] ** 0.5, axis=1)
    attention = weights @ V
"""
import numpy as np
import torch
from torch import nn


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_k = nn.Linear(d_model, d_k, bias=False)
        self.W_v = nn.Linear(d_model, d_k, bias=False)

    def forward(self, x):
        # generating the queries, keys and values
        Q = self.W_q(x).detach().numpy()
        K = self.W_k(x).detach().numpy()
        V = self.W_v(x).detach().numpy()
        # scoring the query vectors against all key vectors
        scores = Q @ np.swapaxes(K, -1, -2)
        # computing the weights by a softmax operation
        weights = softmax(scores / K.shape[-1] ** 0.5, axis=-1)
        # computing the attention by a weighted sum of the value vectors
        attention = weights @ V
        return torch.from_numpy(attention), torch.from_numpy(weights)
