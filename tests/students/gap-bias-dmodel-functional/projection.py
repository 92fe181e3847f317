"""Exercise `projection`: the projection layer, SelfAttention."""
import torch.nn.functional as F
from torch import nn


class SelfAttention(nn.Module):
    def __init__(self, d_model: int, d_k: int):
        super().__init__()
        self.W_q, self.W_k, self.W_v = (nn.Linear(d_model, d_k, bias=True) for _ in "qkv")

    def forward(self, x):
        scale = x.shape[-1] ** -0.5   # the size of the embeddings
        scores = self.W_q(x).matmul(self.W_k(x).mT) * scale
        weights = F.softmax(scores, -1)
        return weights.matmul(self.W_v(x)), weights
