"""What one submission may use: its limits, and the wall time all its calls may take together."""
from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from attnkit.sandbox.protocol import Failure
from attnkit.settings import Settings


@dataclass(frozen=True)
class Limits:
    """What one submission may use; the defaults are course.toml's [settings] defaults (attnkit.settings)."""

    call_timeout: float = Settings.call_timeout
    memory_mb: int = Settings.memory_limit_mb
    output_kb: int = Settings.output_limit_kb
    time_budget: float = Settings.time_budget  # seconds for all of a submission's calls together
    refused: tuple[str, ...] = ()  # names of library routines the code may not reach (`refusals`)

    @property
    def cpu_seconds(self) -> int:
        """CPU time for the whole submission: a backstop behind the wall-clock timeout of each call."""
        return int(self.call_timeout * 30) + 1


class TimeBudget:
    """The wall time all of one submission's calls may take together.

    Each call's own timeout stops one endless call; the budget stops a student
    whose every call takes just under it: once it is spent, every remaining call
    answers `timeout` at once, so a submission costs the class at most this much
    time. It counts whole calls, the grader's answers to stand-in calls included,
    as a call's own timeout does: they are time the submission costs too.
    """

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.used = 0.0
        self._ends = math.inf

    @property
    def spent(self) -> bool:
        return self.used >= self.seconds

    @contextmanager
    def counting(self) -> Iterator[None]:
        """Charge the time spent inside the block (one call into student code) to the budget."""
        start = time.monotonic()
        self._ends = start + self.seconds - self.used
        try:
            yield
        finally:
            self.used += time.monotonic() - start
            self._ends = math.inf

    def cap(self, deadline: float) -> float:
        """The earlier of a call's own deadline and the moment the budget runs out."""
        return min(deadline, self._ends)

    def spent_failure(self) -> Failure:
        return Failure("timeout", "", f"the submission's time budget of {self.seconds:g} s is spent")
