"""Exercise `heads`: several causal attention heads side by side."""
import torch

from .causal import causal_attention


def multi_head(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, n_heads: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Causal attention in `n_heads` heads; returns (output (..., n, d_v), weights (..., n_heads, n, n)).

    Split: (..., n, d) becomes (..., n_heads, n, d / n_heads), head h holding slice h of every
    token's numbers. Merge: the heads' outputs side by side again in each token's row.
    (Everything stays inside the one function the stub declares: nbgrader's answer cell keeps the
    stub's names only.)
    """
    *lead, n, d_v = V.shape
    Q, K, V = (x.reshape(*lead, n, n_heads, x.shape[-1] // n_heads).transpose(-3, -2) for x in (Q, K, V))
    output, weights = causal_attention(Q, K, V)
    return output.transpose(-3, -2).reshape(*lead, n, d_v), weights
