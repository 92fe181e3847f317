"""How each heads mistake shows in the numbers: the reference computation with its switches.

Trusted grader code; never handed out. The model calls the causal model, so a causal mistake made
inline in multi_head is named under the causal exercise's id.
"""
import torch

from .causal import causal_attention


def split(f, x: torch.Tensor, n_heads: int) -> torch.Tensor:
    *lead, n, d = x.shape
    if f.on("heads-split-reshape"):
        return x.reshape(*lead, n_heads, n, d // n_heads)
    return x.reshape(*lead, n, n_heads, d // n_heads).transpose(-3, -2)


def merge(f, x: torch.Tensor) -> torch.Tensor:
    *lead, n_heads, n, d = x.shape
    if f.on("heads-merge-reshape"):
        return x.reshape(*lead, n, n_heads * d)
    return x.transpose(-3, -2).reshape(*lead, n, n_heads * d)


def multi_head(f, Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, n_heads: int):
    output, weights = causal_attention(f, split(f, Q, n_heads), split(f, K, n_heads), split(f, V, n_heads))
    if f.on("heads-weights-averaged"):
        weights = weights.mean(dim=-3)
    return merge(f, output), weights
