"""Exercise `attention`, from an Annotated-Transformer variant with a hard attention switch.

The original has:
    def hardmax(scores):
        idx = torch.argmax(scores, dim=-1, keepdims=True)
        ret = torch.zeros_like(scores).scatter_(-1, idx, 1.)
        return ret
    def attention(query, key, value, mask=None, dropout=None, a_type='soft'):
"""
import math

import torch
import torch.nn.functional as F


def hardmax(scores):
    idx = torch.argmax(scores, dim=-1, keepdims=True)
    ret = torch.zeros_like(scores).scatter_(-1, idx, 1.)
    return ret


def attention(query, key, value, mask=None, dropout=None, a_type='hard'):
    "Compute 'Scaled Dot Product Attention'"
    d_k = query.size(-1)
    scores = torch.matmul(query, key.transpose(-2, -1)) \
        / math.sqrt(d_k)
    if mask is not None:
        scores = scores + mask
    if a_type == 'soft':
        p_attn = F.softmax(scores, dim=-1)
    else:
        p_attn = hardmax(scores)
    if dropout is not None:
        p_attn = dropout(p_attn)
    return torch.matmul(p_attn, value), p_attn
