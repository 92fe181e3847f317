"""Exercise `scaled_scores`, vectorising Machine Learning Mastery's "attention from scratch".

The tutorial scores one query against four keys and scales by the length of one key:
    weights = softmax(scores / key_1.shape[0] ** 0.5)
With all keys stacked in K, shape[0] became shape[-2] so batches work too.
"""
import torch


def scaled_scores(Q, K):
    # scoring the query vectors against all key vectors
    scores = Q @ K.mT
    return scores / K.shape[-2] ** 0.5
