import math
import torch
import torch.nn.functional as F
from torch import nn
from .attention import attention

class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_k = nn.Linear(d_model, d_k, bias=False)
        self.W_v = nn.Linear(d_model, d_k, bias=False)
        self.b_v = nn.Parameter(torch.zeros(d_k))

    def forward(self, x):
        return attention(self.W_q(x), self.W_k(x), self.W_v(x) + self.b_v)
