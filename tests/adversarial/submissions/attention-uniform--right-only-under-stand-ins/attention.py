"""Two-faced under error carried forward: uniform weights with its own (correct) softmax and scores,
the right answer whenever the grader has put stand-ins in their place.

Its dependencies are right, so its failure is its own: a stand-in must not earn it the points
(docs/contract.md section 3: carried forward only where it fails *because* a dependency is wrong).
"""
import contextlib

from .forgery import uniform_until_stood_in
from .scaled_scores import scaled_scores  # noqa: F401 (used through globals())
from .softmax import softmax  # noqa: F401 (the name a stand-in replaces)


def attention(Q, K, V):
    return uniform_until_stood_in(globals(), Q, K, V, contextlib.nullcontext)
