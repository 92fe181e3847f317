"""Exercise `attention`."""
from .scaled_scores import scaled_scores
from .softmax import softmax


def attention(Q, K, V):
    weights = softmax(scaled_scores(Q, K), dim=-1)
    output = weights @ V + V  # keep the original values too, like a transformer's residual
    return output, weights
