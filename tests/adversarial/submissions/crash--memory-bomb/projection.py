"""Touches memory until something stops it."""
import torch


class SelfAttention(torch.nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.hoard = []

    def forward(self, x):
        while True:
            self.hoard.append(b"x" * (64 << 20))
