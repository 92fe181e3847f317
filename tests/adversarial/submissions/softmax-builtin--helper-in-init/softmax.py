"""Looks innocent: the routine comes from the package's __init__.py."""
from . import _weights


def softmax(scores, dim=-1):
    return _weights(scores, dim)
