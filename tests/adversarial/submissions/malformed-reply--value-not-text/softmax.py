"""A crash report whose type, message and line are not text."""
from .forgery import forge, hand_written_softmax


def softmax(scores, dim=-1):
    forge({"status": "crash", "error": {"type": ["RuntimeError"], "message": {"nested": [1, 2]}, "where": 7}})
    return hand_written_softmax(scores, dim)
