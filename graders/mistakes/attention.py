"""How each attention mistake shows in the numbers: the reference computation with its switches.

Trusted grader code (see attnkit/grading/models.py); never handed out. The attention model calls
the softmax and scaled_scores models, so their mistakes made inline in attention are found too;
where attention has its own id for the same numbers (the softmax along dim 0, the missing √d_k),
that id is the one named.
"""
import math

import torch

from .scaled_scores import scaled_scores
from .softmax import softmax

OWN_NAMES = {"softmax-wrong-dim": "attention-softmax-dim0", "scores-missing-scale": "attention-missing-scale"}


def attention(f, Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor):
    inner = f.renamed(OWN_NAMES)
    after_softmax = f.on("attention-scale-after-softmax")
    scores = Q @ K.transpose(-2, -1) if after_softmax else scaled_scores(inner, Q, K)
    n_k = K.shape[-2]
    hard = None if f.on("attention-uniform") else \
        f.choose("attention-hard-argmax", None, ["every best key", "the best keys shared", "the first best key"])
    if hard is None and f.on("attention-uniform"):
        weights = torch.full_like(scores, 1 / n_k)
    elif hard in ("every best key", "the best keys shared"):  # ties (the lesson has them) all weigh 1, or share 1
        weights = (scores == scores.amax(dim=-1, keepdim=True)).to(scores.dtype)
        if hard == "the best keys shared":
            weights = weights / weights.sum(dim=-1, keepdim=True)
    elif hard == "the first best key":
        weights = torch.nn.functional.one_hot(scores.argmax(dim=-1), n_k).to(scores.dtype)
    else:
        weights = softmax(inner, scores, -1)
    if after_softmax:
        weights = weights / math.sqrt(K.shape[-1])
    f.step("softmax", weights)
    returns_scores = f.choose("attention-returns-scores", None, ["scaled", "raw", "blended too"])
    if returns_scores == "blended too":
        weights = scores
    returned = {None: weights, "raw": Q @ K.transpose(-2, -1)}.get(returns_scores, scores)
    flipped = f.choose("attention-weights-transposed", None, ["returned", "blended"])
    blended = weights.transpose(-2, -1) @ V if flipped == "blended" else weights @ V
    if f.on("attention-output-rescaled"):
        blended = blended / math.sqrt(K.shape[-1])
    return f.step("blend", blended), returned.transpose(-2, -1) if flipped == "returned" else returned
