"""Exercise `scaled_scores` with einsum.

From STICKER1998/AI-in-Finance notebooks/Topic1.md (SelfAttention1H):
    score = torch.einsum("bqd, bkd->bqk", [queries, keys])
    attention = torch.softmax(score / (self.d_key ** 0.5), dim=2)
The batch letter b became an ellipsis so any number of batch dimensions (or none) works.
"""
import torch


def scaled_scores(queries, keys):
    d_key = keys.shape[-1]
    score = torch.einsum("...qd, ...kd->...qk", [queries, keys])
    return score / (d_key ** 0.5)
