"""Exercise `attention`."""
import torch

from .scaled_scores import scaled_scores
from .softmax import softmax


def attention(Q, K, V):
    w = softmax(scaled_scores(Q, K))
    out = torch.einsum("...qk,...kd->...qd", w, V)
    return out, w
