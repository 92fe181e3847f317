"""Exercise `projection`, after the PyTorch chatbot tutorial's attention (dcanTOKA/ChatBot).

    attn_energies = self.dot_score(hidden, encoder_outputs)
    attn_energies = attn_energies.t()
    # Return the softmax normalized probability scores (with added dimension)
    return F.softmax(attn_energies, dim=1).unsqueeze(1)
Energies here are (tokens, tokens), or (batch, tokens, tokens); softmax over dim=1 as there.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super(SelfAttention, self).__init__()
        self.d_k = d_k
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_k = nn.Linear(d_model, d_k, bias=False)
        self.W_v = nn.Linear(d_model, d_k, bias=False)

    def forward(self, x):
        q, k, v = self.W_q(x), self.W_k(x), self.W_v(x)
        attn_energies = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)
        # softmax normalized probability scores
        attn_weights = F.softmax(attn_energies, dim=1)
        return torch.matmul(attn_weights, v), attn_weights
