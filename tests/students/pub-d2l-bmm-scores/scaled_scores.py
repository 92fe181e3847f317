"""Exercise `scaled_scores` as d2l's DotProductAttention computes it, with torch.bmm.

d2l.ai, "Attention Scoring Functions":
    d = queries.shape[-1]
    scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(d)
bmm wants exactly one batch dimension, so the leading dimensions are flattened into one and
restored afterwards.
"""
import math

import torch


def scaled_scores(queries, keys):
    d = queries.shape[-1]
    batch_shape = queries.shape[:-2]
    q = queries.reshape(-1, queries.shape[-2], d)
    k = keys.reshape(-1, keys.shape[-2], d)
    scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(d)
    return scores.reshape(*batch_shape, queries.shape[-2], keys.shape[-2])
