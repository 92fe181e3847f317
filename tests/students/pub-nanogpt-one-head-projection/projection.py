"""Exercise `projection`: nanoGPT's CausalSelfAttention with n_head = 1 and no causal mask.

karpathy/nanoGPT model.py splits one c_attn = nn.Linear(n_embd, 3 * n_embd, bias=config.bias)
into q, k, v of n_embd each; the exercise wants three separate layers, so they are W_q, W_k, W_v.
"""
import math

import torch.nn as nn
from torch.nn import functional as F


class SelfAttention(nn.Module):

    def __init__(self, n_embd, head_size, bias=False):
        super().__init__()
        self.n_head = 1
        self.n_embd = n_embd
        # key, query, value projections for all heads (one head: n_embd // n_head == n_embd)
        self.W_q = nn.Linear(n_embd, n_embd, bias=bias)
        self.W_k = nn.Linear(n_embd, n_embd, bias=bias)
        self.W_v = nn.Linear(n_embd, n_embd, bias=bias)

    def forward(self, x):
        q, k, v = self.W_q(x), self.W_k(x), self.W_v(x)
        # manual implementation of attention
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = F.softmax(att, dim=-1)
        y = att @ v
        return y, att
