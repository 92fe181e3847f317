"""Forks until something says no (bounded at 300 so a broken sandbox does not take the machine)."""
import ctypes
import os
import time

from .marker import NAME


def softmax(scores, dim=-1):
    for _ in range(300):
        if os.fork() == 0:
            ctypes.CDLL(None).prctl(15, NAME.encode(), 0, 0, 0)  # PR_SET_NAME: the test looks for this name
            time.sleep(60)
            os._exit(0)
    raise RuntimeError("forked 300 processes and nothing stopped it")
