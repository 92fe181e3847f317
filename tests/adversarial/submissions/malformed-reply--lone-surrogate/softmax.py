"""A Failure whose message holds a lone surrogate: valid JSON, not valid text."""
from .forgery import failure, forge, hand_written_softmax


def softmax(scores, dim=-1):
    forge(failure(message="bad \ud800 text \udfff"))
    return hand_written_softmax(scores, dim)
