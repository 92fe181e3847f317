import math
import torch
import torch.nn.functional as F
from torch import nn
from .attention import attention

class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        for name in ("W_q", "W_k", "W_v"):
            self.__dict__[name] = nn.Linear(d_model, d_k, bias=False)

    def forward(self, x):
        return attention(self.W_q(x), self.W_k(x), self.W_v(x))
