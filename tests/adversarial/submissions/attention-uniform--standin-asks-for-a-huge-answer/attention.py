"""Uniform attention; under stand-ins it asks the scaled_scores stand-in for the scores of two (4096, 1)
tensors: 8,192 numbers in, within the room a call's arguments have, and 16.7 million out. The heap the
grader's reference may use for one call is fixed before it starts, so it fails there (the student's
stand-in error) and the grading worker's memory never grows with it (it grew from 242 MB to 882 MB).
"""
import torch

from .forgery import stand_in
from .scaled_scores import scaled_scores
from .softmax import softmax  # noqa: F401 (the name a stand-in replaces)


def attention(Q, K, V):
    scores = scaled_scores(Q, K)
    standing_in = stand_in(globals(), "scaled_scores")
    if standing_in is not None:
        tall = torch.ones(4096, 1)
        for _ in range(3):
            try:
                standing_in(tall, tall)
            except BaseException:
                pass
    weights = torch.full_like(scores, 1.0 / scores.shape[-1])
    return weights @ V, weights
