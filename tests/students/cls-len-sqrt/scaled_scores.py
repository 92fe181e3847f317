"""Exercise `scaled_scores`: steps 1 and 2 of the worked example, score and scale."""


def scaled_scores(Q, K):
    return Q @ K.transpose(-2, -1) / len(K) ** .5     # divide by root of the length of K
