"""An ok reply whose every list is a string."""
from .forgery import forge, hand_written_softmax


def softmax(scores, dim=-1):
    forge({"status": "ok", "value": "[[0.5, 0.5]]", "types": "tensor", "calls": "none", "args_after": "same"})
    return hand_written_softmax(scores, dim)
