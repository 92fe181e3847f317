"""A genuine Answer whose header says 8 bytes: the rest of it desynchronises the stream."""
from .forgery import answer, forge, hand_written_softmax


def softmax(scores, dim=-1):
    forge(answer([hand_written_softmax(scores, dim).double().numpy()]), claimed_length=8)
    return hand_written_softmax(scores, dim)
