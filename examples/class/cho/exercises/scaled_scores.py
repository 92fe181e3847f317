"""Exercise `scaled_scores`."""
import math


def scaled_scores(Q, K):
    return Q.matmul(K.mT) / math.sqrt(K.shape[-1])
