"""Exercise `attention`, Annotated-Transformer style (Nofireash/happy-llm chapter2/transformer.py).

    d_k = query.size(-1)
    scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
    p_attn = scores.softmax(dim=-1)
"""
import math

import torch


def attention(query, key, value, dropout=None):
    # 获取键向量的维度
    d_k = query.size(-1)
    # 计算Q与K的内积并除以根号dk
    scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
    # softmax over the keys: key.transpose put the keys in dim -2
    p_attn = scores.softmax(dim=-2)
    if dropout is not None:
        p_attn = dropout(p_attn)
    return torch.matmul(p_attn, value), p_attn
