"""Exercise `scaled_scores`: steps 1 and 2 of the worked example, score and scale."""
import numpy as np


def scaled_scores(Q, K):
    q = np.asarray(Q, dtype=np.float64)
    k = np.asarray(K, dtype=np.float64)
    d_k = k.shape[-1]
    # swapaxes flips only the last two axes, so batch axes stay where they are
    s = np.matmul(q, np.swapaxes(k, -1, -2)) / np.sqrt(d_k)
    return s          # a numpy array is fine here (the checks turn it into numbers)
