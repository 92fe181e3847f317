"""Exercise `projection`: the projection layer, SelfAttention."""
from torch import nn

from .attention import attention


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_k = nn.Linear(d_model, d_k, bias=False)
        self.W_v = nn.Linear(d_model, d_k, bias=False)
        # queries and keys live in the same space, so tie their weights
        # (like tied input/output embeddings): fewer parameters
        self.W_k.weight = self.W_q.weight

    def forward(self, x):
        return attention(self.W_q(x), self.W_k(x), self.W_v(x))
