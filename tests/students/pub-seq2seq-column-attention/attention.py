"""Exercise `attention`, written the seq2seq way with keys down the rows.

nesmrten/seq2seq-ai models/attention.py scores with the sequence axis first and normalises over
dim 0, then transposes to blend:
    attention = torch.softmax(self.v(energy), dim=0)
    context = attention.transpose(0, 1).bmm(encoder_outputs.transpose(0, 1))
    return context.transpose(0, 1), attention
"""
import math

import torch


def attention(Q, K, V):
    # energy: one row per key, one column per query
    energy = torch.matmul(K, Q.transpose(-2, -1)) / math.sqrt(K.shape[-1])
    attention = torch.softmax(energy, dim=-2)
    context = torch.matmul(attention.transpose(-2, -1), V)
    return context, attention
