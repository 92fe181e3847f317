"""Exercise `attention`: the whole formula."""
import torch

from .scaled_scores import scaled_scores
from .softmax import softmax


def attention(Q, K, V):
    weights = softmax(scaled_scores(Q, K))
    output = torch.einsum("...qk,...kv->...qv", weights, V)
    return output, weights
