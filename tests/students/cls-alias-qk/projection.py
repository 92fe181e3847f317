"""Exercise `projection`: the projection layer, SelfAttention."""
import torch
from torch import nn

from .attention import attention


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        # queries and keys are both "what the word is about", so one matrix can serve both
        shared = nn.Linear(d_model, d_k, bias=False)
        self.W_q = shared
        self.W_k = shared
        self.W_v = nn.Linear(d_model, d_k, bias=False)

    def forward(self, x):
        return attention(self.W_q(x), self.W_k(x), self.W_v(x))
