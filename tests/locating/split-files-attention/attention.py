"""Attention that keeps its blending in a helper module of its own (blending.py)."""
from .blending import blend
from .scaled_scores import scaled_scores
from .softmax import softmax


def attention(Q, K, V):
    scores = scaled_scores(Q, K)
    weights = softmax(scores, dim=-1)
    return blend(weights, V), weights
