"""Exercise `projection`: the projection layer, SelfAttention.

Lesson: "Where Q, K and V come from" (q = x W^Q, k = x W^K, v = x W^V) and
"Building it in PyTorch, one step at a time", Step 2: learn the projections.
Check it with `attnkit check projection`.
"""
import torch
from torch import nn

from .attention import attention


class SelfAttention(nn.Module):
    """Self-attention with learned query, key and value projections."""

    def __init__(self, d_model: int, d_k: int):
        super().__init__()
        # TODO(projection): "one baker, three facts": three learned
        # projections, stored as W_q, W_k and W_v (the checks look for these
        # names), each a bias-free nn.Linear taking a d_model-number embedding
        # to a d_k-number query, key or value. Register them on the module so
        # training can reach them.
        raise NotImplementedError("projection: create the three projections W_q, W_k, W_v (see the TODO)")

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """x: (tokens, d_model) or (batch, tokens, d_model).

        Returns (output (..., tokens, d_k), weights (..., tokens, tokens)).
        """
        # TODO(projection): make Q, K and V from the same x through the three
        # projections, then run your attention on them. Keep everything in
        # torch so gradients flow back to all three projections.
        raise NotImplementedError("projection: project x to Q, K, V and attend (see the TODO)")
