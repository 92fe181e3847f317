"""Exercise `projection`: the projection layer, SelfAttention."""
from torch import nn

from .attention import attention

# settings copied from my experiment's config file
CONFIG = {"bias": "False", "init": "default"}


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_k, bias=CONFIG["bias"])
        self.W_k = nn.Linear(d_model, d_k, bias=CONFIG["bias"])
        self.W_v = nn.Linear(d_model, d_k, bias=CONFIG["bias"])

    def forward(self, x):
        Q, K, V = self.W_q(x), self.W_k(x), self.W_v(x)
        return attention(Q, K, V)
