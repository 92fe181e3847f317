"""Answers every call with a frame whose status the protocol does not know."""
from .forgery import forge, hand_written_softmax


def softmax(scores, dim=-1):
    forge({"status": "full-marks", "value": [], "types": [], "calls": []})
    return hand_written_softmax(scores, dim)
