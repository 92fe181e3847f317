"""While the grader answers a stand-in for its softmax, a thread writes a stray frame on the reply pipe.

With its own softmax in place it answers uniform weights, so attention fails and the grader runs it
again with a correct stand-in for softmax (error carried forward). Then it computes attention right,
and a thread forges an empty Answer on the reply pipe while the stand-in's exchange with the grader is
under way. (A stand-in is recognised as a softmax not defined in this package's softmax.py.)
"""
import contextlib
import threading

from .forgery import answer, forge, uniform_until_stood_in
from .scaled_scores import scaled_scores  # noqa: F401 (used through globals())
from .softmax import softmax  # noqa: F401 (the name a stand-in replaces)


@contextlib.contextmanager
def stray_frame():
    stray = threading.Thread(target=forge, args=(answer([]),))
    stray.start()
    yield
    stray.join()


def attention(Q, K, V):
    return uniform_until_stood_in(globals(), Q, K, V, stray_frame)
