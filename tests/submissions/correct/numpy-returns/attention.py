import numpy as np


def attention(Q, K, V):
    q, k, v = Q.numpy(), K.numpy(), V.numpy()
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = exps / exps.sum(axis=-1, keepdims=True)
    return weights @ v, weights
