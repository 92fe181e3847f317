"""Uniform attention (wrong, so the grader runs it again with stand-ins), which under stand-ins first calls
the softmax stand-in with text, swallows the stand-in's refusal, then answers right through the stand-ins.
The grader keeps the first call of each stand-in to probe the student's own softmax with the same
arguments, and asks the reference for its answer to them first: the reference cannot take text.
The student's softmax is right, so nothing may be carried; at most this student's attention fails.
"""
import torch

from .forgery import stand_in
from .scaled_scores import scaled_scores
from .softmax import softmax  # noqa: F401 (the name a stand-in replaces)


def attention(Q, K, V):
    scores = scaled_scores(Q, K)
    standing_in = stand_in(globals(), "softmax")
    if standing_in is None:
        weights = torch.full_like(scores, 1.0 / scores.shape[-1])
        return weights @ V, weights
    try:
        standing_in("not scores")
    except TypeError:
        pass
    weights = standing_in(scores, dim=-1)
    return weights @ V, weights
