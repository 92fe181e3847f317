"""A crash report whose exception type name is 40 MB (under today's 64 MB frame limit)."""
from .forgery import forge, hand_written_softmax


def softmax(scores, dim=-1):
    forge({"status": "crash", "error": {"type": "E" * (40 << 20), "message": "boom", "where": ""}})
    return hand_written_softmax(scores, dim)
