"""The API a grader's test uses: call the student's code, compare, name the mistake.

A grader never touches the student's objects: it builds requests (`call`,
`module_call`, `constants`), the `Attempt` sends them to the sandbox and to
the oracle, and `diagnose` decides. A failed check raises `CheckFailed`
carrying the finding, which the plugin turns into feedback.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pytest

from attnkit.grading.diagnosis import Context, Finding, diagnose, status_finding, values_match
from attnkit.grading.oracle import Evaluation, Oracle

Request = dict[str, Any]
Result = dict[str, Any]
GENERIC_FINDINGS = {"wrong-values", "wrong-shape", "not-finite"}


class CheckFailed(pytest.fail.Exception):
    """A check's verdict: the finding that explains the failure.

    A pytest failure without a traceback: pytest would otherwise parse the
    grader's source to draw one for every failed check of every student.
    """

    def __init__(self, finding: Finding):
        super().__init__(f"{finding.mistake}: {finding.detail}", pytrace=False)
        self.finding = finding


def call(module: str, function: str, *args: Any, dtype: str = "float32", outputs: int = 1, **kwargs: Any) -> Request:
    """A request to call `exercises.<module>.<function>(*args, **kwargs)`; arrays become tensors of `dtype`."""
    return {"op": "call", "module": module, "function": function, "args": list(args), "kwargs": kwargs,
            "dtype": dtype, "outputs": outputs}


def module_call(module: str, cls: str, *, init: dict[str, Any], input: np.ndarray, weights: dict[str, np.ndarray],
                parts: list[str], upstream: np.ndarray | None = None, dtype: str = "float32",
                outputs: int = 1) -> Request:
    """A request to build `cls(**init)`, set `weights`, run it on `input` and backpropagate `upstream`."""
    return {"op": "module", "module": module, "class": cls, "init": init, "input": input, "weights": weights,
            "parts": parts, "upstream": upstream, "dtype": dtype, "outputs": outputs}


def constants(module: str, names: list[str]) -> Request:
    """A request to read module-level constants as numbers."""
    return {"op": "constants", "module": module, "names": names}


@dataclass
class History:
    """What this student's code answered earlier in the same exercise."""

    lesson_passed: bool = False  # a public check compared an answer with the reference and it matched
    reference_answers: list[list[np.ndarray]] = field(default_factory=list)


class Attempt:
    """One student's attempt at one exercise, as seen by that exercise's checks."""

    def __init__(self, run: Callable[[Request], Result], oracle: Oracle, context: Context, history: History,
                 public: bool = False):
        self._run = run
        self.public = public
        self.oracle = oracle
        self.context = context
        self.history = history

    @property
    def exercise(self) -> str:
        return self.context.exercise

    def run(self, request: Request) -> Result:
        """The student's raw answer, with no verdict (for checks that judge structure or rules)."""
        return self._run(request)

    def fail(self, mistake: str, detail: str = "", cause: str | None = None) -> None:
        """Fail the check with a catalogued mistake."""
        if mistake not in self.context.catalogue:
            raise KeyError(f"{mistake!r} is not in the mistake catalogue")
        raise CheckFailed(Finding(mistake, detail, cause))

    def evaluate(self, request: Request) -> Evaluation:
        """The reference's answer and the candidate variants' answers to `request`."""
        candidates = [m.id for m in self.context.catalogue.for_exercise(self.exercise)]
        for dependency in self.context.dependencies:
            candidates += [m.id for m in self.context.catalogue.for_exercise(dependency)]
        return self.oracle.evaluate(request, candidates)

    def require_ok(self, student: Result) -> None:
        """Fail with the status finding unless the student's code ran to the end."""
        if student["status"] != "ok":
            raise CheckFailed(status_finding(student, self.context))

    def expect(self, request: Request, student: Result | None = None) -> Result:
        """Run (unless given) the student's answer, compare with the reference, fail with the diagnosis."""
        student = self.run(request) if student is None else student
        if student["status"] != "crash":  # a crash may be a catalogued variant's: diagnose it below
            self.require_ok(student)
        evaluation = self.evaluate(request)
        finding = diagnose(student, evaluation, request, self.context)
        if finding and finding.mistake in GENERIC_FINDINGS and self._looks_hard_coded(student):
            finding = Finding("hard-coded", "right on the lesson's example, wrong on other inputs")
        self.history.reference_answers.append(evaluation.reference["value"])
        if finding:
            raise CheckFailed(finding)
        self.history.lesson_passed |= self.public
        return student

    def _looks_hard_coded(self, student: Result) -> bool:
        """The same answer as an earlier, different input's, or right only on the lesson's example."""
        earlier = any(
            values_match(student["value"], answer, self.context.rtol, self.context.atol)
            for answer in self.history.reference_answers
        )
        return earlier or self.history.lesson_passed
