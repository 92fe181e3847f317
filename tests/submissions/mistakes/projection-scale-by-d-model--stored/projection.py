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
        self.d_model = d_model

    def forward(self, x):
        q, k, v = self.W_q(x), self.W_k(x), self.W_v(x)
        w = F.softmax(torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_model), dim=-1)
        return w @ v, w
