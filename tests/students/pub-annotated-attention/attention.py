"""Exercise `attention`, after the Annotated Transformer's `attention()`.

Adapted from transformerquant/modules/attention/single.py (StateOfTheArt-quant), which follows
"The Annotated Transformer": same body, renamed to the exercise's signature.
"""
import math

import torch
import torch.nn.functional as F


def attention(query, key, value, mask=None, dropout=None):
    d_k = query.size(-1)
    scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)

    if mask is not None:
        scores = scores.masked_fill(mask == 0, -1e9)

    p_attn = F.softmax(scores, dim=-1)
    if dropout is not None:
        p_attn = dropout(p_attn)

    context = torch.matmul(p_attn, value)
    return context, p_attn
