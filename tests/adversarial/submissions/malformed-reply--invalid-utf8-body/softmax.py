"""A frame whose body is not UTF-8."""
from .forgery import forge, hand_written_softmax


def softmax(scores, dim=-1):
    forge(b'{"@message": "Failure", "status": "crash", "type": "\xff\xfe", "message": "", "where": ""}')
    return hand_written_softmax(scores, dim)
