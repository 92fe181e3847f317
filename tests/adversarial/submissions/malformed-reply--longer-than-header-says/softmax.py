"""A frame whose header says 8 bytes and whose body is far longer: the rest desynchronises the stream."""
from .forgery import forge, hand_written_softmax


def softmax(scores, dim=-1):
    forge({"status": "ok", "value": [], "types": [], "calls": [], "padding": "x" * 300}, claimed_length=8)
    return hand_written_softmax(scores, dim)
