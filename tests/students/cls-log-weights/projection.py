"""Exercise `projection`: the projection layer, SelfAttention."""
from torch import nn

from .attention import attention


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.W_q, self.W_k, self.W_v = nn.Linear(d_model, d_k, False), nn.Linear(d_model, d_k, False), nn.Linear(d_model, d_k, False)

    def forward(self, x):
        output, weights = attention(self.W_q(x), self.W_k(x), self.W_v(x))
        return output, weights
