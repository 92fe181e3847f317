"""Exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V."""
import torch

from .scaled_scores import scaled_scores
from .softmax import softmax


def attention(Q, K, V):
    scores = scaled_scores(Q, K)
    weights = softmax(scores, dim=-1)
    output = weights @ V
    print("scores:", scores.shape, "weights:", weights.shape, "output:", output.shape)
    # the scores are handy for plotting, so I return them too
    return output, weights, scores
