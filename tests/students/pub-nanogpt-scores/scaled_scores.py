"""Exercise `scaled_scores`, the way nanoGPT's CausalSelfAttention writes it.

karpathy/nanoGPT model.py: att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
"""
import math

import torch


def scaled_scores(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    # manual implementation of attention (the non-flash path)
    att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
    return att
