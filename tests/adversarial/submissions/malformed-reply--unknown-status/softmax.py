"""A Failure whose status the protocol does not know."""
from .forgery import failure, forge, hand_written_softmax


def softmax(scores, dim=-1):
    forge(failure(status="full-marks"))
    return hand_written_softmax(scores, dim)
