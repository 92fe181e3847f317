def scaled_scores(Q, K):
    return Q @ K.mT / K.shape[-1]
