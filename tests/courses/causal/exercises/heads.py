"""Exercise `heads`: several attention heads side by side, each reading left to right.

Lesson: "Where self-attention breaks" ("every head of every layer") and the
causal attention you wrote in causal.py. Each head attends with its own slice
of the queries, keys and values; the heads' outputs are put back side by side.
Check it with `attnkit check heads`.
"""
import torch

from .causal import causal_attention


def multi_head(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, n_heads: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Causal attention in `n_heads` heads, merged back into one output.

    Q: (..., n, d_k), K: (..., n, d_k), V: (..., n, d_v); d_k and d_v are
    multiples of n_heads. Head h uses the h-th slice of each token's numbers:
    features h * d_k / n_heads up to (h + 1) * d_k / n_heads of Q and K, and
    the same slice of d_v for V.
    Returns (output, weights):
      output  (..., n, d_v): token i's row holds head 0's output, then head 1's, ...;
      weights (..., n_heads, n, n): each head's own attention weights.
    """
    # TODO(heads): split each of Q, K and V into heads: (..., n, d) becomes
    # (..., n_heads, n, d / n_heads), head h holding slice h of every token.
    # A reshape alone cannot move the heads in front of the tokens.
    # TODO(heads): run your causal_attention once on all heads together: the
    # heads are just one more batch dimension to it.
    # TODO(heads): merge the heads' outputs back to (..., n, d_v), token by
    # token, and return them with every head's weights (not their average).
    raise NotImplementedError("heads: split into heads, attend causally, merge (see the TODO)")
