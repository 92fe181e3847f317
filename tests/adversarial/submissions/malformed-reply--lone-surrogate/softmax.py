"""A crash report whose message holds a lone surrogate: valid JSON, not valid text."""
from .forgery import forge, hand_written_softmax


def softmax(scores, dim=-1):
    forge({"status": "crash", "error": {"type": "ValueError", "message": "bad \ud800 text \udfff", "where": ""}})
    return hand_written_softmax(scores, dim)
