"""Answers with a frame that says ok and carries nothing else."""
from .forgery import forge, hand_written_softmax


def softmax(scores, dim=-1):
    forge({"status": "ok"})
    return hand_written_softmax(scores, dim)
