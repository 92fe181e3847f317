import math
import torch
import torch.nn.functional as F
from torch import nn
from .attention import attention

class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.proj = {n: nn.Linear(d_model, d_k, bias=False) for n in "qkv"}

    def forward(self, x):
        return attention(self.proj["q"](x), self.proj["k"](x), self.proj["v"](x))
