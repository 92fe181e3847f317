"""Forks eight children that each hold 300 MB (2.4 GB in all, twice memory_limit_mb) and stay.

Each child is far within its own address-space limit; only a limit on the whole submission stops
them. The children report through a pipe once their memory is touched; then the right answer.
"""
import os
import time

from .forgery import hand_written_softmax

CHILDREN = 8
CHILD_MB = 300
_ready = []


def hoard(ready_w: int) -> None:
    try:
        kept = b"x" * (CHILD_MB << 20)
        os.write(ready_w, b"1")
        time.sleep(3600 + len(kept))
    except MemoryError:
        os.write(ready_w, b"0")
    finally:
        os._exit(0)


def softmax(scores, dim=-1):
    if not _ready:
        ready_r, ready_w = os.pipe()
        for _ in range(CHILDREN):
            if os.fork() == 0:
                hoard(ready_w)
        os.close(ready_w)
        while len(_ready) < CHILDREN:
            got = os.read(ready_r, CHILDREN)
            if not got:
                raise MemoryError(f"only {len(_ready)} of {CHILDREN} children reported")
            _ready.extend(got)
        if b"0"[0] in _ready:
            raise MemoryError(f"{_ready.count(b'0'[0])} of {CHILDREN} children could not hold their memory")
    return hand_written_softmax(scores, dim)
