"""Softmax over rows in a loop: the dim is moved last, every row done on its own."""
import torch


def softmax(scores, dim=-1):
    moved = scores.movedim(dim, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    done = []
    for row in flat:
        peak = torch.max(row)
        ex = torch.exp(row - peak)
        done.append(ex / torch.sum(ex))
    return torch.stack(done).reshape(moved.shape).movedim(-1, dim)
