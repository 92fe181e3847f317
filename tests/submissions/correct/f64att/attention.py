import torch

from .scaled_scores import scaled_scores
from .softmax import softmax


def attention(Q, K, V):
    scores = scaled_scores(Q.double(), K.double())
    weights = softmax(scores, dim=-1)
    return weights @ V.double(), weights
