"""Exercise `projection`: the projection layer, SelfAttention."""
import torch
from torch import nn

from .attention import attention


class SelfAttention(nn.Module):
    """One baker, three facts: the three projections live in a ModuleDict keyed by role."""

    def __init__(self, d_model: int, d_k: int):
        super().__init__()
        self.projections = nn.ModuleDict(
            {role: nn.Linear(d_model, d_k, bias=False) for role in ("query", "key", "value")}
        )

    @property
    def W_q(self) -> nn.Linear:
        return self.projections["query"]

    @property
    def W_k(self) -> nn.Linear:
        return self.projections["key"]

    @property
    def W_v(self) -> nn.Linear:
        return self.projections["value"]

    def forward(self, x: torch.Tensor):
        q, k, v = (self.projections[role](x) for role in ("query", "key", "value"))
        return attention(q, k, v)
