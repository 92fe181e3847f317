"""A frame whose body is not UTF-8."""
from .forgery import forge, hand_written_softmax


def softmax(scores, dim=-1):
    forge(b'{"status": "ok", "value": "\xff\xfe\xfd"}')
    return hand_written_softmax(scores, dim)
