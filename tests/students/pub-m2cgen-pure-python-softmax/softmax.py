"""Exercise `softmax` with m2cgen's pure-Python softmax, one list at a time.

BayesWitnesses/m2cgen m2cgen/interpreters/python/softmax.py:
    def softmax(x):
        m = max(x)
        exps = [math.exp(i - m) for i in x]
        s = sum(exps)
        for idx, _ in enumerate(exps):
            exps[idx] /= s
        return exps
Every slice along `dim` is handed to it as a plain list.
"""
import math

import torch


def _softmax_list(x):
    m = max(x)
    exps = [math.exp(i - m) for i in x]
    s = sum(exps)
    for idx, _ in enumerate(exps):
        exps[idx] /= s
    return exps


def softmax(scores, dim=-1):
    moved = scores.movedim(dim, -1)
    rows = moved.reshape(-1, moved.shape[-1]).tolist()
    out = [_softmax_list(row) for row in rows]
    result = torch.tensor(out, dtype=scores.dtype).reshape(moved.shape)
    return result.movedim(-1, dim)
