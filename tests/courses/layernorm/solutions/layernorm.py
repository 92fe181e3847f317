"""Exercise `layernorm`: the LayerNorm layer, normalisation with a learned gain and bias."""
import torch
from torch import nn

from .normalise import normalise


class LayerNorm(nn.Module):
    """Layer normalisation over the last dimension, with a learned gain and bias."""

    def __init__(self, d_model: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.gain = nn.Parameter(torch.ones(d_model))
        self.bias = nn.Parameter(torch.zeros(d_model))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """x is (..., d_model); so is the result."""
        return self.gain * normalise(x, self.eps) + self.bias
