import math


def scaled_scores(Q, K):
    raw = Q @ K.transpose(-2, -1)
    return raw / math.sqrt(K.shape[-1]) / (raw - raw)  * (raw - raw + 1)
