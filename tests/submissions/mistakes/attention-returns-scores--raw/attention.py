from .scaled_scores import scaled_scores
from .softmax import softmax


def attention(Q, K, V):
    scores = scaled_scores(Q, K)
    return softmax(scores) @ V, scores
