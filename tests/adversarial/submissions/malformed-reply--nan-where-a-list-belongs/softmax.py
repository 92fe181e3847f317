"""An ok reply whose values are NaN (a bare JSON token), not a list of arrays."""
import math

from .forgery import forge, hand_written_softmax


def softmax(scores, dim=-1):
    forge({"status": "ok", "value": math.nan, "types": math.nan, "calls": math.nan, "args_after": math.nan})
    return hand_written_softmax(scores, dim)
