"""Exercise `projection`: one head of the transformer-from-scratch SelfAttention (Aladdin Persson's
video), in the variant that projects the full embedding:

    self.values = nn.Linear(embed_size, embed_size)
    self.keys = nn.Linear(embed_size, embed_size)
    self.queries = nn.Linear(embed_size, embed_size)
    ...
    attention = torch.softmax(energy / (self.embed_size ** (1 / 2)), dim=3)
"""
import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, embed_size, head_dim):
        super(SelfAttention, self).__init__()
        self.embed_size = embed_size
        self.head_dim = head_dim

        self.W_v = nn.Linear(embed_size, embed_size)
        self.W_k = nn.Linear(embed_size, embed_size)
        self.W_q = nn.Linear(embed_size, embed_size)

    def forward(self, x):
        values = self.W_v(x)
        keys = self.W_k(x)
        queries = self.W_q(x)

        # Einsum does matrix mult. for query*keys
        energy = torch.einsum("...qd,...kd->...qk", [queries, keys])

        # Normalize energy values so that they sum to 1. Also divide by scaling factor
        attention = torch.softmax(energy / (self.embed_size ** (1 / 2)), dim=-1)

        out = torch.einsum("...ql,...ld->...qd", [attention, values])
        return out, attention
