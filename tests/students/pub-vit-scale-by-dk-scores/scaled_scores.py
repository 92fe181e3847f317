"""Exercise `scaled_scores` in the style of lucidrains/vit-pytorch's Attention.

vit_pytorch/vit.py:
    self.scale = dim_head ** -0.5
    dots = torch.matmul(q, k.transpose(-1, -2)) * self.scale
"""
import torch


def scaled_scores(q, k):
    dim_head = k.shape[-1]
    scale = dim_head ** -1
    dots = torch.matmul(q, k.transpose(-1, -2)) * scale
    return dots
