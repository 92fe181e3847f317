"""Exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V."""
import torch

from .scaled_scores import scaled_scores
from .softmax import softmax


def attention(Q, K, V):
    weights = softmax(scaled_scores(Q, K), dim=-1)
    output = weights @ V
    # I like the map with the keys down the side, like the lesson's table of tokens
    attention_map = weights.transpose(-2, -1)
    return output, attention_map
