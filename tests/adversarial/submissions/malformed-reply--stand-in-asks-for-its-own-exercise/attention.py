"""Rewrites its stand-in's request so that the grader would compute the reference's attention.

With its own softmax in place it answers uniform weights, so attention fails and the grader runs it
again with a correct stand-in for softmax (error carried forward). Then the request the stand-in
writes on the reply pipe goes through a relay that renames `softmax` to `attention`: a grader that
answered would run the reference of the very exercise being graded on the student's arguments.
"""
import torch

from .forgery import rewrite_next_frame, stand_in
from .scaled_scores import scaled_scores
from .softmax import softmax  # noqa: F401 (the name a stand-in replaces)


def ask_for_attention(body: bytes) -> bytes:
    return body.replace(b'"softmax"', b'"attention"')


def attention(Q, K, V):
    scores = scaled_scores(Q, K)
    standing_in = stand_in(globals(), "softmax")
    if standing_in is None:
        weights = torch.full_like(scores, 1.0 / scores.shape[-1])  # wrong on purpose: earns a rerun
        return weights @ V, weights
    rewrite_next_frame(ask_for_attention)  # the next frame written is the stand-in's request
    weights = standing_in(scores, dim=-1)
    return weights @ V, weights
