import torch
from torch import nn


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_k = nn.Linear(d_model, d_k, bias=False)
        self.W_v = nn.Linear(d_model, d_k, bias=False)
        self.d_k = d_k

    def forward(self, x):
        q, k, v = self.W_q(x), self.W_k(x), self.W_v(x)
        scores = torch.matmul(q, k.transpose(-1, -2)) / self.d_k ** 0.5
        e = torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
        weights = e / e.sum(-1, keepdim=True)
        return weights @ v, weights
