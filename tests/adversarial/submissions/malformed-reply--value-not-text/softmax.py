"""A Failure whose type, message and line are not text."""
from .forgery import failure, forge, hand_written_softmax


def softmax(scores, dim=-1):
    forge(failure(type=["RuntimeError"], message={"nested": [1, 2]}, where=7))
    return hand_written_softmax(scores, dim)
