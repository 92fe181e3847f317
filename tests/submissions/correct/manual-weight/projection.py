import math
import torch
import torch.nn.functional as F
from torch import nn


class SelfAttention(nn.Module):
    def __init__(self, d_model: int, d_k: int):
        super().__init__()
        self.W_q, self.W_k, self.W_v = (nn.Linear(d_model, d_k, bias=False) for _ in range(3))
        self.register_buffer("scale", torch.tensor(1 / math.sqrt(d_k)))

    def forward(self, x):
        Q = x @ self.W_q.weight.T
        K = torch.einsum("...td,kd->...tk", x, self.W_k.weight)
        V = F.linear(x, self.W_v.weight)
        weights = F.softmax(Q @ K.mT * self.scale, dim=-1)
        return torch.bmm(weights.unsqueeze(0) if weights.dim() == 2 else weights, V.unsqueeze(0) if V.dim() == 2 else V).reshape(*x.shape[:-1], V.shape[-1]), weights
