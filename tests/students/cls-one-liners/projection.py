from torch import nn; from .attention import attention


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k): super().__init__(); self.W_q, self.W_k, self.W_v = (nn.Linear(d_model, d_k, bias=False) for _ in range(3))
    def forward(self, x): return attention(*(W(x) for W in (self.W_q, self.W_k, self.W_v)))
