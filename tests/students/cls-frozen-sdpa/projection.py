"""Exercise `projection`: the projection layer, SelfAttention."""
import torch
from torch import nn

from .attention import attention


def frozen_linear(d_in, d_out):
    """A bias-free projection that starts frozen: I pretrain the rest first, then unfreeze."""
    return nn.Linear(d_in, d_out, bias=False).requires_grad_(False)


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.W_q = frozen_linear(d_model, d_k)
        self.W_k = frozen_linear(d_model, d_k)
        self.W_v = frozen_linear(d_model, d_k)

    def unfreeze(self):
        return self.requires_grad_(True)

    def forward(self, x):
        return attention(self.W_q(x), self.W_k(x), self.W_v(x))
