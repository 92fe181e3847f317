"""Exercise `scaled_scores`: steps 1 and 2 of the worked example, score and scale."""
import math


def scaled_scores(Q, K):
    d_k = K.shape[1]
    return Q @ K.transpose(0, 1) / math.sqrt(d_k)
