from .scaled_scores import scaled_scores
from .softmax import softmax


def attention(Q, K, V):
    weights = softmax(scaled_scores(Q, K))
    return weights @ V, weights.T
