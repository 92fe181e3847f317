"""Ctrl-C held back across work that must not be cut in the middle, and raised once it is done."""
from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def interrupt_held() -> Iterator[None]:
    """Ctrl-C noted, not raised, until the block ends; then raised.

    For importing torch and for starting a process. A handler of our own rather than a blocked
    signal: a mask holds for one thread, and the kernel hands SIGINT to any thread that has not
    blocked it (OpenBLAS starts some with numpy). Python then raises KeyboardInterrupt in the main
    thread wherever it is: in Python code torch's C++ is calling during its import, which aborts the
    whole process (`attnkit check`, seen once in CI), or in a fork hook of Popen, which prints a
    traceback beside the one line an interrupt should print.
    """
    if threading.current_thread() is not threading.main_thread():  # only it may set handlers, and
        yield  # Ctrl-C never reaches the others
        return
    came: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: came.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if came:
        raise KeyboardInterrupt
