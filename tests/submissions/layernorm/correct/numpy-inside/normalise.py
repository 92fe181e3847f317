import numpy as np
import torch
def normalise(x, eps=1e-5):
    a = x.detach().numpy()
    m = a.mean(axis=-1, keepdims=True)
    v = ((a - m) ** 2).mean(axis=-1, keepdims=True)
    return torch.from_numpy((a - m) / np.sqrt(v + eps))
