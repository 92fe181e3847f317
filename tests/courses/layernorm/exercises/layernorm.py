"""Exercise `layernorm`: the LayerNorm layer, normalisation with a learned gain and bias.

Normalising every token to mean 0 and variance 1 throws away its scale; the layer gives the
model a way back: a gain that multiplies and a bias that shifts each of the d numbers, both
learned. Check it with `attnkit check layernorm`.
"""
import torch
from torch import nn

from .normalise import normalise


class LayerNorm(nn.Module):
    """Layer normalisation over the last dimension, with a learned gain and bias."""

    def __init__(self, d_model: int, eps: float = 1e-5):
        super().__init__()
        # TODO(layernorm): keep eps for forward, and register two learned
        # parameters of d_model numbers each, named gain and bias (the checks
        # look for these names): gain starts as all ones, bias as all zeros, so
        # a fresh layer only normalises.
        raise NotImplementedError("layernorm: keep eps and create the parameters gain and bias (see the TODO)")

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """x: (..., d_model). Returns a tensor of x's shape."""
        # TODO(layernorm): normalise x with your normalise and this layer's
        # eps, then scale by the gain and shift by the bias, in that order.
        raise NotImplementedError("layernorm: normalise, then scale by gain and shift by bias (see the TODO)")
