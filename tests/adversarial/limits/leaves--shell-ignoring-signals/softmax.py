"""Leaves a shell behind (posix_spawn, a session of its own) that ignores signals and keeps a sleep running."""
import os

from .forgery import hand_written_softmax

SCRIPT = "trap '' TERM HUP INT QUIT; sleep 120 & sleep 120; wait"
_left = []


def softmax(scores, dim=-1):
    if not _left:
        _left.append(os.posix_spawn("/bin/sh", ["sh", "-c", SCRIPT], {}, setsid=True))
    return hand_written_softmax(scores, dim)
