"""Exercise `projection`: the Head from Karpathy's "Let's build GPT" lecture (ng-video-lecture gpt.py).

    B,T,C = x.shape
    k = self.key(x)   # (B,T,C)
    q = self.query(x) # (B,T,C)
    wei = q @ k.transpose(-2,-1) * C**-0.5 # (B, T, C) @ (B, C, T) -> (B, T, T)
    wei = wei.masked_fill(self.tril[:T, :T] == 0, float('-inf')) # (B, T, T)
    wei = F.softmax(wei, dim=-1) # (B, T, T)
The lesson's layer is not causal, so tril and dropout are gone; T, C come from the last two axes
so an unbatched input works too.
"""
import torch
import torch.nn as nn
from torch.nn import functional as F


class SelfAttention(nn.Module):
    """ one head of self-attention """

    def __init__(self, n_embd, head_size):
        super().__init__()
        self.W_k = nn.Linear(n_embd, head_size, bias=False)
        self.W_q = nn.Linear(n_embd, head_size, bias=False)
        self.W_v = nn.Linear(n_embd, head_size, bias=False)

    def forward(self, x):
        T, C = x.shape[-2:]
        k = self.W_k(x)   # (B,T,C)
        q = self.W_q(x)   # (B,T,C)
        # compute attention scores ("affinities")
        wei = q @ k.transpose(-2, -1) * C**-0.5  # (B, T, C) @ (B, C, T) -> (B, T, T)
        wei = F.softmax(wei, dim=-1)  # (B, T, T)
        # perform the weighted aggregation of the values
        v = self.W_v(x)  # (B,T,C)
        out = wei @ v  # (B, T, T) @ (B, T, C) -> (B, T, C)
        return out, wei
