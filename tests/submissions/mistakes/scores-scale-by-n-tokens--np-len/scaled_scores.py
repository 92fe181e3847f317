import numpy as np


def scaled_scores(Q, K):
    return Q @ K.mT / np.sqrt(len(K))
