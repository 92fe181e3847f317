"""Exercise `attention`, after lucidrains/vit-pytorch's Attention.forward.

vit_pytorch/vit.py:
    self.scale = dim_head ** -0.5
    self.attend = nn.Softmax(dim = -1)
    dots = torch.matmul(q, k.transpose(-1, -2)) * self.scale
    attn = self.attend(dots)
    out = torch.matmul(attn, v)
"""
import torch
from torch import nn

attend = nn.Softmax(dim=-1)


def attention(q, k, v):
    scale = k.shape[-1] ** -0.5
    dots = torch.matmul(q, k.transpose(-1, -2))
    attn = attend(dots) * scale
    out = torch.matmul(attn, v)
    return out, attn
