"""Exercise `projection` with XCiT's learnable temperature.

facebookresearch/xcit xcit.py (XCA) keeps `self.temperature = nn.Parameter(torch.ones(num_heads, 1, 1))`
and multiplies the attention logits by it. One head here, so the temperature is a 1-element
parameter, and it starts at 1 on top of the usual 1/sqrt(d_k).
"""
import math

import torch
from torch import nn


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.temperature = nn.Parameter(torch.ones(1))
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_k = nn.Linear(d_model, d_k, bias=False)
        self.W_v = nn.Linear(d_model, d_k, bias=False)

    def forward(self, x):
        q, k, v = self.W_q(x), self.W_k(x), self.W_v(x)
        attn = (q @ k.transpose(-2, -1)) / math.sqrt(k.shape[-1]) * self.temperature
        attn = attn.softmax(dim=-1)
        return attn @ v, attn

    @torch.jit.ignore
    def no_weight_decay(self):
        return {'temperature'}
