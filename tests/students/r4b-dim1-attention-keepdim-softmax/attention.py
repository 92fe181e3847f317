"""Exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V."""
from .scaled_scores import scaled_scores
from .softmax import softmax


def attention(Q, K, V):
    scores = scaled_scores(Q, K)
    weights = softmax(scores, dim=1)   # dim 1: across the columns, so along each row
    return weights @ V, weights
