"""The whole formula in numpy, then back to tensors."""
import numpy as np
import torch


def attention(Q, K, V):
    q, k, v = (t.detach().numpy().astype(np.float64) for t in (Q, K, V))
    d_k = k.shape[-1]
    s = np.matmul(q, np.swapaxes(k, -1, -2)) / np.sqrt(d_k)
    s = s - np.max(s, axis=-1, keepdims=True)
    e = np.exp(s)
    w = e / np.sum(e, axis=-1, keepdims=True)
    o = np.matmul(w, v)
    return torch.from_numpy(o).to(Q.dtype), torch.from_numpy(w).to(Q.dtype)
