"""Backing the warm parent's heap with huge pages, so each fork and exit of a sandbox costs less.

A fork copies the page tables of the parent's private memory (about 150 MB once torch is imported:
some 37,000 entries of 4 KB pages) and a sandbox's exit tears its copy down again. With that memory
in 2 MB pages a fork copies some 75 entries instead, and an exit frees as few; a sandbox that writes
to a shared huge page splits only its own mapping of it, one 4 KB page copied as before. Measured on
the 1,000-student benchmark: about 3 s less CPU in the sandboxes, 1 to 1.7 s less wall time.

Collapsing costs the parent about 0.2 s of CPU once, before it serves: worth it for a class, not for
a single `attnkit check`, whose start is the student's wait. Best effort: a kernel without
MADV_COLLAPSE (before 6.1), or with transparent huge pages turned off, leaves the memory as it is.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import re

MADV_HUGEPAGE, MADV_COLLAPSE = 14, 25
HUGE_PAGE = 2 << 20
# A private, anonymous, writable mapping: malloc's heap and arenas, where Python's objects live.
PRIVATE_ANONYMOUS = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) rw-p 00000000 00:00 0\s*(\[heap\])?\s*$")


def collapse_heap() -> int:
    """Ask the kernel to back every whole 2 MB span of this process's private memory with huge pages;
    the number of mappings it did so for."""
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    collapsed = 0
    with open("/proc/self/maps") as maps:
        spans = [(int(m[1], 16), int(m[2], 16)) for m in map(PRIVATE_ANONYMOUS.match, maps) if m]
    for start, end in spans:
        first, last = -(-start // HUGE_PAGE) * HUGE_PAGE, end // HUGE_PAGE * HUGE_PAGE
        if last > first:
            libc.madvise(first, last - first, MADV_HUGEPAGE)  # khugepaged may keep it so as it grows
            collapsed += libc.madvise(first, last - first, MADV_COLLAPSE) == 0
    return collapsed
