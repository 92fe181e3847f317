"""Ctrl-C and SIGTERM: held back across work that must not be cut in the middle, and raised once it is done.

SIGTERM is what `timeout`, CI and job schedulers send; `attnkit` handles it as Ctrl-C
(`terminate_as_interrupt`, around every command): it raises KeyboardInterrupt, so the same clean-up runs (a consistent
gradebook, the class copy removed, no process left), and the command exits 143 instead of 130.
"""
from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

HELD = (signal.SIGINT, signal.SIGTERM)
_terminated = threading.Event()  # set once a SIGTERM was turned into a KeyboardInterrupt


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """In the block, SIGTERM raises KeyboardInterrupt in the main thread, as Ctrl-C does (main thread only;
    the handler before is restored after, so a command run inside another program leaves it as it was)."""
    _terminated.clear()
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def terminated() -> bool:
    """Whether the interrupt being handled came from SIGTERM rather than Ctrl-C."""
    return _terminated.is_set()


def exit_status() -> int:
    """128 + the signal that stopped the command: 143 for SIGTERM, 130 for Ctrl-C."""
    return 128 + (signal.SIGTERM if terminated() else signal.SIGINT)


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    _terminated.set()
    raise KeyboardInterrupt


@contextmanager
def interrupt_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM noted, not raised, until the block ends; then raised.

    For importing torch and for starting a process. A handler of our own rather than a blocked
    signal: a mask holds for one thread, and the kernel hands SIGINT to any thread that has not
    blocked it (OpenBLAS starts some with numpy). Python then raises KeyboardInterrupt in the main
    thread wherever it is: in Python code torch's C++ is calling during its import, which aborts the
    whole process (`attnkit check`, seen once in CI), or in a fork hook of Popen, which prints a
    traceback beside the one line an interrupt should print.
    """
    if threading.current_thread() is not threading.main_thread():  # only it may set handlers, and
        yield  # signals never reach the others
        return
    came: list[int] = []
    previous = {signum: signal.signal(signum, lambda signum, frame: came.append(signum)) for signum in HELD}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if signal.SIGTERM in came and previous[signal.SIGTERM] is _raise_terminated:
        _raise_terminated(signal.SIGTERM, None)
    if signal.SIGINT in came:
        raise KeyboardInterrupt
    if signal.SIGTERM in came:  # not ours to turn into an interrupt: what SIGTERM would have done
        signal.raise_signal(signal.SIGTERM)
