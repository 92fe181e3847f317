"""Exercise `projection`: the projection layer, SelfAttention."""
import torch
from torch import nn

from .attention import attention


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_k = nn.Linear(d_model, d_k, bias=False)
        self.W_v = nn.Linear(d_model, d_k, bias=False)

    def forward(self, x):
        # a batch is just more tokens: stack all sentences into one long list of tokens
        tokens = x.reshape(-1, x.shape[-1])
        return attention(self.W_q(tokens), self.W_k(tokens), self.W_v(tokens))
