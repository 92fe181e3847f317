"""A genuine Answer with one field (the calls seen) left out."""
from .forgery import answer, forge, hand_written_softmax, record


def softmax(scores, dim=-1):
    reply = record(answer([hand_written_softmax(scores, dim).double().numpy()]))
    del reply["calls"]
    forge(reply)
    return hand_written_softmax(scores, dim)
