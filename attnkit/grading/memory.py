"""What grading remembers: one record per check, and one memory per student.

A check's diagnosis may lean on what earlier checks learnt (an exercise's mistakes, proved by its own
checks, explain a later exercise's wrong answer; a mistake one answer proved is tried first on the next).
All of that lives in one `StudentMemory`, made afresh for each student and passed to every step of
diagnosis (`attnkit.grading.steps`), so what a step may read of earlier checks is written here, not
hidden in the order the plugin happens to call things.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from attnkit.grading.diagnosis import Finding
from attnkit.grading.locating import Located
from attnkit.grading.results import WrongAnswer
from attnkit.sandbox.protocol import Request


@dataclass(frozen=True)
class Carried:
    """A dependency whose mistake a check was spared: its exercise, what it got wrong, how it showed."""

    exercise: str
    mistakes: tuple[str, ...]
    detail: str


@dataclass
class CheckRecord:
    """What one check found."""

    findings: list[Finding] = field(default_factory=list)
    carried: list[Carried] = field(default_factory=list)
    reported_forbidden: bool = False  # a forbidden name's use is named once per check
    located: Located | None = None  # where its first wrong answer goes wrong in the student's code (words only)
    locate_later: Callable[[bool], Located | None] | None = None  # finds `located`, given whether the check is hidden
    answer: WrongAnswer | None = None  # the numbers no mistake model or sign explained, for the class report


@dataclass(frozen=True)
class Question:
    """One question of the exercise the student answered with numbers, wrong, and what its diagnosis found.

    Kept so the exercise's checks are judged together at its end (`attnkit.grading.consistency`): an id one
    answer's numbers suggest is named only where no other answer contradicts it."""

    request: Request
    values: list[np.ndarray]
    expected: list[np.ndarray]
    findings: tuple[Finding, ...]
    described: tuple[str, str]  # the generic id and the words for these numbers, were no model to explain them


@dataclass
class ExerciseMemory:
    """What the checks of one exercise learnt so far, for one student (the same code answered them all)."""

    answers: list[tuple[str, list[np.ndarray]]] = field(default_factory=list)  # earlier (numbers key, reference)
    no_pair: bool = False  # no pair of mistakes explained an earlier answer: the same code, so none will
    established: list[tuple[str, ...]] = field(default_factory=list)  # explanations earlier answers proved
    questions: list[Question] = field(default_factory=list)  # the wrong answers with numbers, in order


@dataclass
class StudentMemory:
    """What grading one student has learnt so far: settled exercises, and the exercise under way."""

    found: dict[str, list[str]] = field(default_factory=dict)    # exercise id -> the mistakes its checks found
    carried: dict[str, list[str]] = field(default_factory=dict)  # exercise id -> exercises whose mistakes it was spared
    exercise: ExerciseMemory = field(default_factory=ExerciseMemory)

    def start_exercise(self) -> None:
        """A new exercise's checks begin: what the last exercise's answers showed does not carry over."""
        self.exercise = ExerciseMemory()

    def settle(self, exercise: str, mistakes: list[str], carried_from: list[str]) -> None:
        """An exercise's checks are all done: later exercises may read what they found."""
        self.found[exercise] = mistakes
        self.carried[exercise] = carried_from

    def remember(self, numbers_key: str, reference: list[np.ndarray]) -> None:
        """The reference's answer to one question of this exercise (to spot an answer that ignores its input)."""
        self.exercise.answers.append((numbers_key, reference))
