"""Exercise `projection`: SelfAttention1H from STICKER1998/AI-in-Finance notebooks/Topic1.md.

    self.query = nn.Linear(in_features=d_model, out_features=d_key, bias=False)
    ...
    score = torch.einsum("bqd, bkd->bqk", [queries, keys])
    attention = torch.softmax(score / (self.d_key ** 0.5), dim=2)
    out = torch.einsum("bqk, bkd->bqd", [attention, values])
Batch letter as an ellipsis, softmax over the last axis, so unbatched input works too.
"""
import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_key):
        super(SelfAttention, self).__init__()
        self.d_model = d_model
        self.d_key = d_key

        # Linear transformations for query, key, and value vectors
        self.W_q = nn.Linear(in_features=d_model, out_features=d_key, bias=False)
        self.W_k = nn.Linear(in_features=d_model, out_features=d_key, bias=False)
        self.W_v = nn.Linear(in_features=d_model, out_features=d_key, bias=False)

    def forward(self, x):
        queries = self.W_q(x)
        keys = self.W_k(x)
        values = self.W_v(x)

        score = torch.einsum("...qd, ...kd->...qk", [queries, keys])
        attention = torch.softmax(score / (self.d_key ** 0.5), dim=-1)
        out = torch.einsum("...qk, ...kd->...qd", [attention, values])
        return out, attention
