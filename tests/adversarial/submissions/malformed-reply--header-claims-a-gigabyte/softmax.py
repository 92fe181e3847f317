"""A header announcing a gigabyte, then a few bytes, then the honest answer."""
from .forgery import forge, hand_written_softmax


def softmax(scores, dim=-1):
    forge(b'{"@message": "Answer"', claimed_length=1 << 30)
    return hand_written_softmax(scores, dim)
