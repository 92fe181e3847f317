import numpy as np


def scaled_scores(Q, K):
    q, k = Q.numpy(), K.numpy()
    return np.matmul(q, np.swapaxes(k, -1, -2)) / np.sqrt(k.shape[-1])
