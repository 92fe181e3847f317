"""Exercise `scaled_scores`: steps 1 and 2, score and scale, Q Kᵀ / √d_k."""


def scaled_scores(Q, K):
    return Q @ K.transpose(-2, -1) / K.shape[-1]
