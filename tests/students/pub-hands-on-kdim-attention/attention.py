"""Exercise `attention`, Charmaineem/Hands-On-LLMs Transformer/layers.py (Attention.forward).

    d_k = k.dim()
    dot = torch.matmul(q, k.transpose(-2, -1))
    s = F.softmax(dot/math.sqrt(d_k), dim=-1)
    print(s)
    output = torch.matmul(s, v)
    return output
"""
import torch
import math
import torch.nn as nn
import torch.nn.functional as F


def attention(q, k, v):
    d_k = k.dim()
    dot = torch.matmul(q, k.transpose(-2, -1))
    s = F.softmax(dot/math.sqrt(d_k), dim=-1)
    print(s)
    output = torch.matmul(s, v)
    return output, s
