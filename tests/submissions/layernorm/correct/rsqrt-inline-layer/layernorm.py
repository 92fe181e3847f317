import torch
from torch import nn

class LayerNorm(nn.Module):
    def __init__(self, d_model, eps=1e-5):
        super().__init__()
        self.register_parameter("gain", nn.Parameter(torch.ones(d_model)))
        self.register_parameter("bias", nn.Parameter(torch.zeros(d_model)))
        self.eps = eps
    def forward(self, x):
        c = x - x.mean(-1, keepdim=True)
        return c * torch.rsqrt(c.pow(2).mean(-1, keepdim=True) + self.eps) * self.gain + self.bias
