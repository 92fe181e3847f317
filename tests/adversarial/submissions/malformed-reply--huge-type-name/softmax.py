"""A Failure whose exception type name is 10 MB: under the frame limit, far over any text limit."""
from .forgery import failure, forge, hand_written_softmax


def softmax(scores, dim=-1):
    forge(failure(type="E" * (10 << 20)))
    return hand_written_softmax(scores, dim)
