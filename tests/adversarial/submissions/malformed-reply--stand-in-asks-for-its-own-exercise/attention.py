"""Rewrites its stand-in's request so that the grader would compute the reference's attention.

With its own softmax in place it answers uniform weights, so attention fails and the grader runs it
again with a correct stand-in for softmax (error carried forward). Then the request the stand-in
writes on the reply pipe goes through a relay that renames `softmax` to `attention`: a grader that
answered would run the reference of the very exercise being graded on the student's arguments.
(A stand-in is recognised as a softmax not defined in this package's softmax.py.)
"""
import contextlib

from .forgery import rewrite_next_frame, uniform_until_stood_in
from .scaled_scores import scaled_scores  # noqa: F401 (used through globals())
from .softmax import softmax  # noqa: F401 (the name a stand-in replaces)


def ask_for_attention(body: bytes) -> bytes:
    return body.replace(b'"softmax"', b'"attention"')


@contextlib.contextmanager
def renamed_request():
    rewrite_next_frame(ask_for_attention)  # the next frame written is the stand-in's request
    yield


def attention(Q, K, V):
    return uniform_until_stood_in(globals(), Q, K, V, renamed_request)
