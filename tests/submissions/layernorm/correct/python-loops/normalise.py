import math
import torch
def normalise(x, eps=1e-5):
    flat = x.reshape(-1, x.shape[-1])
    rows = []
    for row in flat.tolist():
        m = sum(row) / len(row)
        v = sum((r - m) ** 2 for r in row) / len(row)
        rows.append([(r - m) / math.sqrt(v + eps) for r in row])
    return torch.tensor(rows, dtype=x.dtype).reshape(x.shape)
