import math
import torch
import torch.nn.functional as F
from torch import nn
from .attention import attention

class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.query = nn.Linear(d_model, d_k, bias=False)
        self.key = nn.Linear(d_model, d_k, bias=False)
        self.value = nn.Linear(d_model, d_k, bias=False)

    def forward(self, x):
        return attention(self.query(x), self.key(x), self.value(x))
