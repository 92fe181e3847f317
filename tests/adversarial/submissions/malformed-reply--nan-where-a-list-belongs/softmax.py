"""A genuine Answer whose lists are NaN (a bare JSON token)."""
from .forgery import answer, forge, hand_written_softmax, record


def softmax(scores, dim=-1):
    reply = record(answer([hand_written_softmax(scores, dim).double().numpy()]))
    forge({**reply, "inputs_after": float("nan"), "calls": float("nan")})
    return hand_written_softmax(scores, dim)
