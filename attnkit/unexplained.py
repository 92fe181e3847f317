"""Wrong answers no catalogued mistake explains, put together by what they compute.

Within a run every student meets the same hidden inputs, so two students whose code computes the same
wrong thing return the same numbers there. One group a set of such students, per exercise: their
unexplained answers agree within each check's tolerance on every check both answered on the same inputs.
Only what the grader already holds is compared (each check's `WrongAnswer`): nobody's code runs again.

The numbers decide, not the first wrong step the feedback locates: one computation written two ways may
first part from the lesson at different steps (halving the scores in the shift, or taking the square root
of e^score), and the instructor wants one group for one mistake. The group's `step` is the step most of
its members first go wrong at (None where none is located), and its `located` line a member's there.

Cheap on a large class: each answer is compared at once, with numpy, with every group's representative
numbers for the same check (their first few numbers first, the rest only where those agree): a
comparison a student and a check, not a pair of students.
"""
from __future__ import annotations

from collections import Counter
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
    """The step where the check's answer first goes wrong, and its location, where the feedback locates it.

    (From the student's process, like every location: it sorts the instructor's groups, never a score.)"""
    if check.location is None:
        return None, None
    return check.location.step, check.location.to_json()


def group_unexplained(exercise: str, results: Iterable[SubmissionResult],
                      generic: frozenset[str] = GENERIC_IDS) -> list[UnexplainedGroup]:
    """The exercise's groups, largest first (then by their first student)."""
    groups = _Groups(exercise)
    for result in results:
        graded = result.exercises.get(exercise)
        wrong = _unexplained_checks(graded, generic) if graded is not None and not result.problem else []
        if wrong:
            groups.add(result.student, wrong)
    found = groups.settled()
    return sorted(found, key=lambda g: (-g.size, g.students[0].casefold()))


def _unexplained_checks(graded: ExerciseResult, generic: frozenset[str]) -> list[CheckResult]:
    """The exercise's failed checks whose numbers nothing explains (only generic ids named, numbers kept).

    A check that also names a catalogued mistake (an overflow beside the unknown mistake, say) is left
    out of the comparison: its numbers mix the two."""
    return [c for c in graded.checks if not c.passed and c.answer is not None and set(c.mistakes) <= generic]


class _Rows:
    """The representative numbers of one check (on one set of inputs) of every group that has them: one row a
    group, in a matrix grown by doubling, so a student is compared with all of them in one numpy step."""

    PREFIX = 8  # numbers compared first: most groups differ there, and only the rest are compared whole

    def __init__(self, width: int):
        self.matrix = np.empty((4, width))
        self.groups = np.empty(4, dtype=int)
        self.count = 0

    def add(self, group: int, numbers: np.ndarray) -> None:
        if self.count == len(self.groups):
            self.matrix = np.concatenate([self.matrix, np.empty_like(self.matrix)])
            self.groups = np.concatenate([self.groups, np.empty_like(self.groups)])
        self.matrix[self.count], self.groups[self.count] = numbers, group
        self.count += 1

    def agreeing(self, numbers: np.ndarray, rtol: float, atol: float) -> np.ndarray:
        """The groups whose numbers equal these within the tolerance."""
        reps = self.matrix[:self.count]
        candidates = np.flatnonzero(_close(reps[:, :self.PREFIX], numbers[:self.PREFIX], rtol, atol).all(axis=1))
        whole = _close(reps[candidates], numbers, rtol, atol).all(axis=1)
        return self.groups[candidates[whole]]


def _close(reps: np.ndarray, numbers: np.ndarray, rtol: float, atol: float) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return (np.abs(reps - numbers) <= atol + rtol * np.abs(reps)) | (reps == numbers) | \
            (np.isnan(reps) & np.isnan(numbers))


class _Groups:
    """The groups of one exercise as they form. Two students are put together when their answers agree,
    within the check's tolerance, on every check both answered unexplained on the same inputs and shapes,
    and there is at least one such check. A group's representative numbers, a check each, are its first
    member's answer to that check."""

    def __init__(self, exercise: str):
        self.exercise = exercise
        self.groups: list[UnexplainedGroup] = []
        self.rows: dict[tuple[Any, ...], _Rows] = {}  # (check, inputs, shapes) -> the groups' numbers
        self.held: list[set[tuple[Any, ...]]] = []  # per group: the keys it has numbers for
        self.steps: list[Counter[str]] = []  # per group: its members' first wrong steps
        self.located: list[dict[str, dict[str, Any]]] = []  # per group: a member's location at each step

    def add(self, student: str, wrong: list[CheckResult]) -> None:
        count = len(self.groups)
        agree, shared = np.ones(count, dtype=bool), np.zeros(count, dtype=bool)
        keyed = [(_key(c), c, _numbers(c)) for c in wrong]
        for key, check, numbers in keyed:
            rows = self.rows.get(key)
            if rows is None or not rows.count:
                continue
            assert check.answer is not None
            having = rows.groups[:rows.count]
            agree[having] &= np.isin(having, rows.agreeing(numbers, check.answer.rtol, check.answer.atol))
            shared[having] = True
        matches = np.flatnonzero(agree & shared)
        if matches.size:
            index = int(matches[0])
            group = self.groups[index]
            group.students.append(student)
            group.checks += [c.name for c in wrong if c.name not in group.checks]
        else:
            index = count
            self.groups.append(UnexplainedGroup(self.exercise, [c.name for c in wrong], None, [student]))
            self.held.append(set())
            self.steps.append(Counter())
            self.located.append({})
        for key, _, numbers in keyed:
            if key not in self.held[index]:
                self.rows.setdefault(key, _Rows(numbers.size)).add(index, numbers)
                self.held[index].add(key)
        step, located = next((first_wrong_step(c) for c in wrong if first_wrong_step(c)[0]), (None, None))
        if step is not None and located is not None:
            self.steps[index][step] += 1
            self.located[index].setdefault(step, located)

    def settled(self) -> list[UnexplainedGroup]:
        """The groups, each with the step most of its members first go wrong at, and a line there."""
        for group, steps, located in zip(self.groups, self.steps, self.located):
            if steps:
                group.step = min(steps, key=lambda step: (-steps[step], step))
                group.located = located[group.step]
        return self.groups


def _key(check: CheckResult) -> tuple[Any, ...]:
    assert check.answer is not None
    return check.test, check.answer.inputs, tuple(map(tuple, check.answer.shapes))


def _numbers(check: CheckResult) -> np.ndarray:
    assert check.answer is not None
    return np.array([float(v) for output in check.answer.values for v in output], dtype=np.float64)
