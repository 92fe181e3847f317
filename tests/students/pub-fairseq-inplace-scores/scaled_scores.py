"""Exercise `scaled_scores` the fairseq MultiheadAttention way: scale the queries, then bmm-style matmul.

fairseq/modules/multihead_attention.py:
    self.scaling = self.head_dim ** -0.5
    ...
    q *= self.scaling
    ...
    attn_weights = torch.bmm(q, k.transpose(1, 2))
"""
import torch


def scaled_scores(q, k):
    scaling = k.size(-1) ** -0.5
    q *= scaling
    attn_weights = torch.matmul(q, k.transpose(-2, -1))
    return attn_weights
