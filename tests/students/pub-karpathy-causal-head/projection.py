"""Exercise `projection`: the Head of karpathy/ng-video-lecture gpt.py (k.shape[-1]**-0.5 version),
mask included, returning the weights too.
"""
import torch
import torch.nn as nn
from torch.nn import functional as F

block_size = 256  # what is the maximum context length for predictions?


class SelfAttention(nn.Module):
    """ one head of self-attention """

    def __init__(self, n_embd, head_size):
        super().__init__()
        self.W_k = nn.Linear(n_embd, head_size, bias=False)
        self.W_q = nn.Linear(n_embd, head_size, bias=False)
        self.W_v = nn.Linear(n_embd, head_size, bias=False)
        self.register_buffer('tril', torch.tril(torch.ones(block_size, block_size)))

    def forward(self, x):
        # input of size (batch, time-step, channels)
        # output of size (batch, time-step, head size)
        T = x.shape[-2]
        k = self.W_k(x)   # (B,T,hs)
        q = self.W_q(x)   # (B,T,hs)
        # compute attention scores ("affinities")
        wei = q @ k.transpose(-2, -1) * k.shape[-1]**-0.5  # (B, T, hs) @ (B, hs, T) -> (B, T, T)
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float('-inf'))  # (B, T, T)
        wei = F.softmax(wei, dim=-1)  # (B, T, T)
        # perform the weighted aggregation of the values
        v = self.W_v(x)  # (B,T,hs)
        out = wei @ v  # (B, T, T) @ (B, T, hs) -> (B, T, hs)
        return out, wei
