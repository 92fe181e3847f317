"""Exercise `projection`, SelfAttention_v2 from "Build a LLM from scratch" ch. 3 (rasbt), on my attention().

szhongren/build_mini_llm chapter3/self_attention_v2.py, renamed W_query -> W_q etc.
"""
import torch
import torch.nn as nn

from .attention import attention


class SelfAttention(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_q = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_k = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_v = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        queries = self.W_q(x)
        keys = self.W_k(x)
        values = self.W_v(x)
        context_vectors, attention_weights = attention(queries, keys, values)
        return context_vectors, attention_weights
