"""Exercise `projection`: the projection layer, SelfAttention."""
import torch
from torch import nn

from .attention import attention


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_k = self.W_q                 # a word's question and its label are the same thing
        self.W_v = nn.Linear(d_model, d_k, bias=False)

    def forward(self, x):
        Q, K, V = self.W_q(x), self.W_k(x), self.W_v(x)
        with torch.no_grad():               # attention itself has nothing to learn
            output, weights = attention(Q, K, V)
        return output, weights
