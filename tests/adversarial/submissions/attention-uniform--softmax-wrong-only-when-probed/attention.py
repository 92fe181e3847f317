"""Two-faced attention (uniform weights unless stood in for, as ../submissions/attention-uniform--right-only-
under-stand-ins), with a softmax that is right in all its own checks and wrong from the moment a stand-in
run has been seen: the grader's probe of the dependency (asked after the stand-in run) then finds it wrong
and carries attention forward. Policy of the existing attack: attention must score 0.
"""
import contextlib

import torch

from .forgery import uniform_until_stood_in
from .scaled_scores import scaled_scores  # noqa: F401 (used through globals())
from .softmax import softmax  # noqa: F401 (the name a stand-in replaces)


@contextlib.contextmanager
def softmax_goes_wrong_from_now():
    torch.r4_stood_in = True  # outlives the package's re-import
    yield


def attention(Q, K, V):
    return uniform_until_stood_in(globals(), Q, K, V, softmax_goes_wrong_from_now)
