import torch
from torch import nn

class LayerNorm(nn.Module):
    def __init__(self, d_model, eps=1e-5):
        super().__init__()
        self.gain = nn.Parameter(torch.ones(d_model))
        self.bias = nn.Parameter(torch.zeros(d_model))
        self.eps = eps
    def forward(self, x):
        m = x.mean(dim=-1, keepdim=True)
        s = x.std(dim=-1, keepdim=True, unbiased=False)
        return self.gain * (x - m) / (s + self.eps) + self.bias
