"""Right, after sleeping just under call_timeout (6 s in the test's course) on every call."""
import time

from .forgery import hand_written_softmax

NAP = 5.5


def softmax(scores, dim=-1):
    time.sleep(NAP)
    return hand_written_softmax(scores, dim)
