"""Holds 2.4 GB (twice memory_limit_mb) in memory files, which no address-space limit counts.

Each memory file stays within the 16 MB file-size limit; 150 of them do the rest. If the whole
submission's memory were limited, a write fails or the process is killed; if not, the right answer.
"""
import os

from .forgery import hand_written_softmax

HOARD_MB = 2400
FILE_MB = 16
_held = []


def softmax(scores, dim=-1):
    megabyte = b"x" * (1 << 20)
    while len(_held) * FILE_MB < HOARD_MB:
        fd = os.memfd_create(f"hoard-{len(_held)}")
        for _ in range(FILE_MB):
            os.write(fd, megabyte)
        _held.append(fd)
    return hand_written_softmax(scores, dim)
