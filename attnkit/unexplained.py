"""Wrong answers no catalogued mistake explains, put together by what they compute.

Within a run every student meets the same hidden inputs, so two students whose code computes the same
wrong thing return the same numbers there. One group a set of such students, per exercise: the same
unexplained checks failed, on the same inputs, with numbers equal within each check's tolerance on
every one of them, and the same first wrong step where the feedback locates one. Only what the grader
already holds is compared (each check's `WrongAnswer`): nobody's code runs again.

Cheap on a large class: answers are first bucketed by what must match exactly (checks, inputs, shapes,
step), then each answer is compared at once, with numpy, against the representatives of its bucket's
groups: a comparison a student, not a pair.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from attnkit.grading.results import CheckResult, ExerciseResult, SubmissionResult


@dataclass
class UnexplainedGroup:
    """Students of one exercise whose unexplained wrong answers agree: who, on which checks, from which step."""

    exercise: str
    checks: list[str]
    step: str | None
    students: list[str] = field(default_factory=list)
    located: dict[str, Any] | None = None  # a representative's located line, where the feedback has one

    @property
    def size(self) -> int:
        return len(self.students)

    def to_json(self) -> dict[str, Any]:
        return {"students": self.students, "checks": self.checks, "step": self.step, "size": self.size}


def first_wrong_step(check: CheckResult) -> tuple[str | None, dict[str, Any] | None]:
    """The step the check's `location` names, and the location, where the feedback locates the mistake.

    (Read by name: the locating feature, issue 16, adds `location` to a check's result.)"""
    location = getattr(check, "location", None)
    if location is None:
        return None, None
    record = location if isinstance(location, dict) else getattr(location, "to_json", lambda: None)()
    step = record.get("step") if isinstance(record, dict) else None
    return (step if isinstance(step, str) else None), record


def group_unexplained(exercise: str, results: Iterable[SubmissionResult]) -> list[UnexplainedGroup]:
    """The exercise's groups, largest first (then by their first student)."""
    buckets: dict[tuple[Any, ...], _Bucket] = {}
    for result in results:
        graded = result.exercises.get(exercise)
        wrong = _unexplained_checks(graded) if graded is not None and not result.problem else []
        if not wrong:
            continue
        step, located = next((first_wrong_step(c) for c in wrong if first_wrong_step(c)[0]), (None, None))
        key = (tuple(c.name for c in wrong), step,
               tuple((c.answer.inputs, tuple(map(tuple, c.answer.shapes))) for c in wrong if c.answer))
        bucket = buckets.setdefault(key, _Bucket(exercise, [c.name for c in wrong], step))
        bucket.add(result.student, wrong, located)
    groups = [g for bucket in buckets.values() for g in bucket.groups]
    return sorted(groups, key=lambda g: (-g.size, g.students[0].casefold()))


def _unexplained_checks(graded: ExerciseResult) -> list[CheckResult]:
    """The exercise's failed checks that hold a wrong answer no mistake explains, if every failure is such."""
    failed = [c for c in graded.checks if not c.passed]
    if not failed or any(c.answer is None for c in failed):
        return []  # a catalogued mistake or a crash explains (part of) it: the catalogue's counts show it
    return failed


class _Bucket:
    """Answers that agree on everything but their numbers; each group keeps its first answer as representative."""

    def __init__(self, exercise: str, checks: list[str], step: str | None):
        self.exercise, self.checks, self.step = exercise, checks, step
        self.groups: list[UnexplainedGroup] = []
        self.representatives: list[np.ndarray] = []  # one row a group: its numbers, all checks end to end
        self.tolerance: tuple[np.ndarray, np.ndarray] | None = None  # rtol and atol, a number each

    def add(self, student: str, wrong: list[CheckResult], located: dict[str, Any] | None) -> None:
        numbers = np.concatenate([_numbers(c) for c in wrong])
        if self.tolerance is None:
            self.tolerance = (np.concatenate([np.full(_numbers(c).size, c.answer.rtol if c.answer else 0.0)
                                              for c in wrong]),
                              np.concatenate([np.full(_numbers(c).size, c.answer.atol if c.answer else 0.0)
                                              for c in wrong]))
        if self.representatives:
            reps = np.stack(self.representatives)
            rtol, atol = self.tolerance
            close = (np.abs(reps - numbers) <= atol + rtol * np.abs(reps)) | (np.isnan(reps) & np.isnan(numbers)) | \
                (reps == numbers)
            matches = np.flatnonzero(close.all(axis=1))
            if matches.size:
                self.groups[int(matches[0])].students.append(student)
                return
        self.groups.append(UnexplainedGroup(self.exercise, self.checks, self.step, [student], located))
        self.representatives.append(numbers)


def _numbers(check: CheckResult) -> np.ndarray:
    assert check.answer is not None
    return np.array([float(v) for output in check.answer.values for v in output], dtype=np.float64)
