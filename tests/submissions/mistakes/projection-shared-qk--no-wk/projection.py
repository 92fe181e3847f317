import math
import torch
import torch.nn.functional as F
from torch import nn
from .attention import attention

class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_v = nn.Linear(d_model, d_k, bias=False)

    def forward(self, x):
        Q = K = self.W_q(x)
        return attention(Q, K, self.W_v(x))
