"""An Answer holding 200,000 nested lists: a recursive decoder's stack runs out."""
from .forgery import forge, hand_written_softmax


def softmax(scores, dim=-1):
    forge(b'{"@message": "Answer", "returned": ' + b"[" * 200_000 + b"]" * 200_000 + b"}")
    return hand_written_softmax(scores, dim)
