"""Exercise `projection`, from Bayesian4042/neural-network-algorithms transformers/self-attention/main.py.

The original's signature is SelfAttention(d_in, d_out, qvk_bias=True); kept as it was.
(transpose(1, 2) became transpose(-2, -1) so an unbatched (tokens, d_model) input works.)
"""
from torch import nn
import torch


class SelfAttention(nn.Module):
    def __init__(self, d_in: int, d_out: int, qvk_bias: bool = True):
        super().__init__()
        self.d_out = d_out

        self.W_q = nn.Linear(d_in, d_out, bias=qvk_bias)
        self.W_k = nn.Linear(d_in, d_out, bias=qvk_bias)
        self.W_v = nn.Linear(d_in, d_out, bias=qvk_bias)

    def forward(self, x):
        keys = self.W_k(x)
        queries = self.W_q(x)
        values = self.W_v(x)

        attn_scores = queries @ keys.transpose(-2, -1)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
        context_vec = attn_weights @ values
        return context_vec, attn_weights
