"""How each causal mistake shows in the numbers: the reference computation with its switches.

Trusted grader code; never handed out. The model calls the scores model, so a scores mistake made
inline in causal_attention (raw Q Kᵀ, say) is named under the scores exercise's id.
`causal-attends-later` is here in its plainest spelling (no mask at all); the grader also names it
from the student's own weights, however they came to leak.
"""
import torch

from .scores import scaled_scores


def causal_attention(f, Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor):
    scores = scaled_scores(f, Q, K)
    n = scores.shape[-1]
    later = torch.ones(n, n, dtype=torch.bool).triu(1)
    if f.on("causal-attends-later"):
        later = torch.zeros_like(later)
    if f.on("causal-mask-flipped"):
        later = later.transpose(0, 1)
    if f.on("causal-mask-after-softmax"):
        weights = torch.softmax(scores, dim=-1).masked_fill(later, 0.0)
    else:
        fill = f.choose("causal-mask-zero", float("-inf"), [0.0])
        weights = torch.softmax(scores.masked_fill(later, fill), dim=-1)
    return weights @ V, weights
