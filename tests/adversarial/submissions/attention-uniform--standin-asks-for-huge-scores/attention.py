"""Uniform attention; under stand-ins it asks the scaled_scores stand-in for the scores of 4000 queries and
4000 keys (2 MB of arguments, under the 16 MB frame limit): the grader computes the 4000 x 4000 answer in
its own, trusted process, unbounded by the sandbox's memory limit, before finding it too large to send.
The memory grows with the square of what the student sends; this size is kept small on purpose.
"""
import torch

from .forgery import stand_in
from .scaled_scores import scaled_scores
from .softmax import softmax  # noqa: F401 (the name a stand-in replaces)

SIZE = 4000


def attention(Q, K, V):
    scores = scaled_scores(Q, K)
    standing_in = stand_in(globals(), "scaled_scores")
    if standing_in is None:
        weights = torch.full_like(scores, 1.0 / scores.shape[-1])
        return weights @ V, weights
    big = torch.ones(SIZE, 64)
    try:
        standing_in(big, big)
    except BaseException:
        pass
    weights = torch.full_like(scores, 1.0 / scores.shape[-1])
    return weights @ V, weights
