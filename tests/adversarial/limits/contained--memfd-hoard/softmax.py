"""Holds 2.4 GB (twice memory_limit_mb) in memory files, which no address-space limit counts.

A step a call (600 MB: well within any call's time, however busy the machine), each memory file
within the 16 MB file-size limit. Until the whole hoard is held it answers wrong; then right. If
the submission's memory is limited as a whole, a step fails or the process is killed, and every
check fails; if not, the later checks pass.
"""
import os

import torch

from .forgery import hand_written_softmax

HOARD_MB, STEP_MB, FILE_MB = 2400, 600, 16
_held = []


def hoard_a_step() -> None:
    megabyte = b"x" * (1 << 20)
    for _ in range(STEP_MB // FILE_MB):
        fd = os.memfd_create(f"hoard-{len(_held)}")
        for _ in range(FILE_MB):
            os.write(fd, megabyte)
        _held.append(fd)


def softmax(scores, dim=-1):
    if len(_held) * FILE_MB < HOARD_MB:
        hoard_a_step()
        return torch.zeros_like(scores)
    return hand_written_softmax(scores, dim)
