"""The C library, for the system calls Python has no wrapper of (mount, unshare, setns, prctl, keyctl)."""
from __future__ import annotations

import ctypes
import ctypes.util
import os

LIBC = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


def check(result: int, what: str) -> None:
    """Raise OSError (with errno's message) for a call that returned non-zero."""
    if result != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"{what}: {os.strerror(error)}")
