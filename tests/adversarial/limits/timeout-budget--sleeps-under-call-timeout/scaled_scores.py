"""Right, after sleeping just under call_timeout on every call."""
import math
import time

NAP = 5.5


def scaled_scores(Q, K):
    time.sleep(NAP)
    return Q @ K.transpose(-2, -1) / math.sqrt(K.shape[-1])
