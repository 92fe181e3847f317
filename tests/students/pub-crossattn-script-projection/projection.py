"""Exercise `projection` from a one-head cross-attention script, turned into a module.

bangbv/AlgorithmInPython representations/embeddings/cross_attention.py:
    WQ = torch.nn.Linear(d_model, dk, bias=False) ... (WK, WV likewise)
    scores = Q @ K.transpose(-2, -1) / math.sqrt(dk)
    weights = torch.softmax(scores, dim=-1)
    context = weights @ V
Self-attention: target and source are the same x. The script's output projection WO is left out
(the lesson's layer has none).
"""
import math

import torch


class SelfAttention(torch.nn.Module):
    def __init__(self, d_model, dk):
        super().__init__()
        self.dk = dk
        self.W_q = torch.nn.Linear(d_model, dk, bias=False)
        self.W_k = torch.nn.Linear(d_model, dk, bias=False)
        self.W_v = torch.nn.Linear(d_model, dk, bias=False)

    def forward(self, x):
        Q = self.W_q(x)                                         # (B, NT, dk)
        K = self.W_k(x)                                         # (B, NS, dk)
        V = self.W_v(x)                                         # (B, NS, dk)

        scores = Q @ K.transpose(-2, -1) / math.sqrt(self.dk)   # (B, NT, NS)
        weights = torch.softmax(scores, dim=-1)                 # (B, NT, NS)
        context = weights @ V                                   # (B, NT, dk)
        return context, weights
