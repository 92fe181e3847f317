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

from attnkit.grading.engine_ids import CRASH, GENERIC_IDS as ENGINE_GENERIC
from attnkit.grading.results import CheckResult, ExerciseResult, SubmissionResult

GENERIC_IDS = ENGINE_GENERIC - {CRASH}  # what a check names when no catalogued mistake explains its numbers


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


def group_unexplained(exercise: str, results: Iterable[SubmissionResult],
                      generic: frozenset[str] = GENERIC_IDS) -> list[UnexplainedGroup]:
    """The exercise's groups, largest first (then by their first student)."""
    buckets: dict[str | None, _Bucket] = {}
    for result in results:
        graded = result.exercises.get(exercise)
        wrong = _unexplained_checks(graded, generic) if graded is not None and not result.problem else []
        if not wrong:
            continue
        step, located = next((first_wrong_step(c) for c in wrong if first_wrong_step(c)[0]), (None, None))
        bucket = buckets.setdefault(step, _Bucket(exercise, step))
        bucket.add(result.student, wrong, located)
    groups = [g for bucket in buckets.values() for g in bucket.groups]
    return sorted(groups, key=lambda g: (-g.size, g.students[0].casefold()))


def _unexplained_checks(graded: ExerciseResult, generic: frozenset[str]) -> list[CheckResult]:
    """The exercise's failed checks whose numbers nothing explains (only generic ids named, numbers kept).

    A check that also names a catalogued mistake (an overflow beside the unknown mistake, say) is left
    out of the comparison: its numbers mix the two."""
    return [c for c in graded.checks if not c.passed and c.answer is not None and set(c.mistakes) <= generic]


class _Bucket:
    """Groups of one exercise and one first wrong step. Two students are put together when their answers
    agree, within the check's tolerance, on every check both answered unexplained on the same inputs and
    shapes, and there is at least one such check. A group's representative numbers, a check each, are its
    first member's answer to that check (kept per check as one row a group, so a student is compared with
    every group at once)."""

    def __init__(self, exercise: str, step: str | None):
        self.exercise, self.step = exercise, step
        self.groups: list[UnexplainedGroup] = []
        self.rows: dict[tuple[Any, ...], dict[int, np.ndarray]] = {}  # (check, inputs, shapes) -> group -> numbers

    def add(self, student: str, wrong: list[CheckResult], located: dict[str, Any] | None) -> None:
        count = len(self.groups)
        agree, shared = np.ones(count, dtype=bool), np.zeros(count, dtype=bool)
        keyed = [(_key(c), c) for c in wrong]
        for key, check in keyed:
            held = self.rows.get(key)
            if not held or not count:
                continue
            index = np.fromiter(held, dtype=int, count=len(held))
            reps, numbers = np.stack(list(held.values())), _numbers(check)
            assert check.answer is not None
            close = ((np.abs(reps - numbers) <= check.answer.atol + check.answer.rtol * np.abs(reps))
                     | (reps == numbers) | (np.isnan(reps) & np.isnan(numbers))).all(axis=1)
            agree[index] &= close
            shared[index] = True
        matches = np.flatnonzero(agree & shared)
        if matches.size:
            group_index = int(matches[0])
            group = self.groups[group_index]
            group.students.append(student)
            group.checks += [c.name for c in wrong if c.name not in group.checks]
        else:
            group_index = count
            self.groups.append(UnexplainedGroup(self.exercise, [c.name for c in wrong], self.step, [student], located))
        for key, check in keyed:
            self.rows.setdefault(key, {}).setdefault(group_index, _numbers(check))


def _key(check: CheckResult) -> tuple[Any, ...]:
    assert check.answer is not None
    return check.test, check.answer.inputs, tuple(map(tuple, check.answer.shapes))


def _numbers(check: CheckResult) -> np.ndarray:
    assert check.answer is not None
    return np.array([float(v) for output in check.answer.values for v in output], dtype=np.float64)
