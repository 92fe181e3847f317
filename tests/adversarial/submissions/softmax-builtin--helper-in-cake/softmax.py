"""Looks innocent: the work is done by a helper in another module of the package."""
from .cake import normalise


def softmax(scores, dim=-1):
    return normalise(scores, dim)
