"""This process's warm sandbox parent, and where the sandboxes' warnings go: light enough to start first.

`attnkit check` starts the parent before it imports anything else (`cli.check`): the parent's torch import
is the longest thing a check waits for, and the kit's own imports then overlap it instead of delaying it.
So this module imports nothing heavy; the parent's class (`warm.WarmParent`) is imported when one starts.
"""
from __future__ import annotations

import atexit
import socket
import sys
from collections.abc import Callable

from attnkit.sandbox import isolation

_shared_parent = None


def warm_parent(sharers: int = 0, huge_pages: bool = False):
    """This process's warm parent, started on first use (its torch import overlaps the grader's work);
    `sharers`: how many grading workers will share it (`WarmParent.shared_sockets`); `huge_pages`: for a
    class, back its heap with huge pages."""
    global _shared_parent
    if _shared_parent is None:
        from attnkit.sandbox.warm import WarmParent

        _shared_parent = WarmParent(sharers=sharers, huge_pages=huge_pages)
        atexit.register(_shared_parent.close)
    return _shared_parent


def take_shared_sockets() -> list[socket.socket]:
    """The sockets to this process's warm parent meant for grading workers (none when no parent was started
    for sharing); each is taken once."""
    if _shared_parent is None:
        return []
    shared, _shared_parent.shared_sockets = _shared_parent.shared_sockets, []
    return shared


def join_warm_parent(fd: int) -> None:
    """Use the warm parent the grading process started and handed down as `fd`, rather than start one."""
    global _shared_parent
    from attnkit.sandbox.warm import WarmParent

    _shared_parent = WarmParent.joined(fd)
    atexit.register(_shared_parent.close)


def stop_warm_parent() -> None:
    """Stop using this process's warm parent (close it, or let go of one joined); the next `warm_parent()`
    starts another."""
    global _shared_parent
    if _shared_parent is not None:
        _shared_parent.close()
        _shared_parent = None


def warn_unenforced(refusal: str | None, cgroup_refusal: str | None) -> None:
    """Say once what is not enforced when sandboxes are not isolated, or their limits hold per process
    only (to `warning_sink`: stderr, or a grading worker's channel to the process that started it)."""
    if refusal is None and cgroup_refusal is None:
        return
    parts = [f"student code is not isolated ({refusal}): {isolation.unenforced()}"] if refusal else []
    if cgroup_refusal is None:
        parts.append("memory and processes are limited for each submission as a whole, "
                     "and nothing it starts outlives grading")
    else:
        parts.append(f"limits hold per process only ({cgroup_refusal}): memory_limit_mb bounds each process's "
                     "address space, so a submission's processes and memory files together can hold more")
        if refusal:
            parts.append("a detached process it starts may outlive grading")
    say_once(f"attnkit: warning: {'; '.join(parts)}.")


def say_once(text: str) -> None:
    """Pass a warning on, the first time this process meets it."""
    if text not in _said:
        _said.add(text)
        warning_sink(text)


def _to_stderr(text: str) -> None:
    print(text, file=sys.stderr)


_said: set[str] = set()
warning_sink: Callable[[str], None] = _to_stderr  # a grading worker sends its warnings to the grading process


def prewarm(sharers: int = 0, huge_pages: bool = False) -> None:
    """Start the warm parent now (on Linux), so its torch import overlaps whatever the caller does next:
    the first thing `attnkit check` and `attnkit grade` do, as the parent's start is on their critical path.
    `sharers`: grading workers that will share it; `huge_pages`: for a class (see `warm_parent`)."""
    if sys.platform.startswith("linux"):
        warm_parent(sharers, huge_pages)
