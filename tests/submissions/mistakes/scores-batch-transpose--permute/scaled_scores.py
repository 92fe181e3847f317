import math


def scaled_scores(Q, K):
    return Q @ K.transpose(0, 1) / math.sqrt(K.shape[-1])
