"""What a class run tells the instructor on the console: its warnings, and its progress as a bar."""
from __future__ import annotations

from attnkit.class_grading import Listener
from attnkit.console import Console
from attnkit.grading.results import SubmissionResult


class TerminalProgress(Listener):
    """What a class run tells the instructor, on the console: its warnings, and its progress as a bar."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def warn(self, message: str) -> None:
        self.console.warn(message)

    def starting(self, count: int) -> None:
        self.console.start_progress(count, "grading")

    def graded(self, result: SubmissionResult) -> None:
        self.console.advance()

    def finish(self) -> None:
        self.console.end_progress()
