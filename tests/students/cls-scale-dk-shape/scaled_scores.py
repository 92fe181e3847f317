"""Exercise `scaled_scores`: steps 1 and 2 of the worked example, score and scale."""
import torch


def scaled_scores(Q, K):
    scores = Q.matmul(K.transpose(-1, -2))
    return scores.div(K.shape[-1])       # scale by the key length
