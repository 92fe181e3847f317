import math


def scaled_scores(Q, K):
    d_k = K.shape[2]  # assumes a batch dimension
    return Q @ K.transpose(-2, -1) / math.sqrt(d_k)
