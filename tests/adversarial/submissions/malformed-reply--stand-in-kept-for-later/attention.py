"""Right attention over a wrong softmax (so error carried forward applies), which points the package's
`__path__` at an empty folder on every call: the stand-in run then forgets nothing but the package itself,
and the softmax module it put a stand-in into stays in sys.modules with the stand-in after the run. Later
requests that do not offer stand-ins then call it. Only this student may be hurt: no crash, no points it
would not get honestly (attention carried from softmax at most).
"""
import sys
from pathlib import Path

from . import softmax as softmax_module
from .scaled_scores import scaled_scores

EMPTY = str(Path(__file__).resolve().parent.parent)  # the submission folder: no .py files, only exercises/


def attention(Q, K, V):
    sys.modules[__package__].__path__ = [EMPTY]
    weights = softmax_module.softmax(scaled_scores(Q, K), dim=-1)
    return weights @ V, weights
