import os


def scaled_scores(Q, K):
    os._exit(3)
