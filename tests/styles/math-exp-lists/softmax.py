"""Softmax with math.exp over plain Python lists, one row at a time."""
import math

import torch


def softmax(scores, dim=-1):
    moved = scores.movedim(dim, -1)
    rows = moved.reshape(-1, moved.shape[-1]).tolist()
    answer = []
    for row in rows:
        m = max(row)
        exps = [math.exp(v - m) for v in row]
        total = sum(exps)
        probs = [e / total for e in exps]
        answer.append(probs)
    table = torch.tensor(answer, dtype=scores.dtype)
    return table.reshape(moved.shape).movedim(-1, dim)
