"""Holds 2.4 GB (twice memory_limit_mb) in forked children: eight of 300 MB, each far within its own
address-space limit.

Two children a call (well within any call's time, however busy the machine), each reporting through
a pipe once its memory is touched. Until all eight hold theirs it answers wrong; then right. If the
submission's memory is limited as a whole, a child is refused or killed and every check fails; if
not, the later checks pass.
"""
import os
import time

import torch

from .forgery import hand_written_softmax

CHILDREN, CHILD_MB, STEP = 8, 300, 2
_holding = []


def hoard(ready_w: int) -> None:
    try:
        kept = b"x" * (CHILD_MB << 20)
        os.write(ready_w, b"1")
        time.sleep(3600 + len(kept))
    except MemoryError:
        os.write(ready_w, b"0")
    finally:
        os._exit(0)


def hoard_a_step() -> None:
    ready_r, ready_w = os.pipe()
    children = []
    for _ in range(STEP):
        child = os.fork()
        if child == 0:
            hoard(ready_w)
        children.append(child)
    os.close(ready_w)
    reports = b""
    while len(reports) < STEP:
        got = os.read(ready_r, STEP)
        if not got:
            break
        reports += got
    os.close(ready_r)
    if reports != b"1" * STEP:
        raise MemoryError(f"{STEP - reports.count(b'1')} of {STEP} children could not hold their memory")
    _holding.extend(children)


def softmax(scores, dim=-1):
    if len(_holding) < CHILDREN:
        hoard_a_step()
        return torch.zeros_like(scores)
    return hand_written_softmax(scores, dim)
