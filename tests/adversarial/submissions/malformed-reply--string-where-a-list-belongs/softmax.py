"""A genuine Answer whose lists are strings."""
from .forgery import answer, forge, hand_written_softmax, record


def softmax(scores, dim=-1):
    reply = record(answer([hand_written_softmax(scores, dim).double().numpy()]))
    forge({**reply, "inputs_after": "unchanged", "calls": "none"})
    return hand_written_softmax(scores, dim)
