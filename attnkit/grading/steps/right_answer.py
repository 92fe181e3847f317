"""The answer is the reference's and left its inputs alone: the student earns it, nothing to diagnose."""
from __future__ import annotations

from attnkit.grading.steps.case import Case, problem
from attnkit.sandbox.protocol import Answer


def right_answer(case: Case) -> bool:
    if problem(case.context, case.request, case.student, case.reference, case.names) is not None:
        return False
    assert isinstance(case.student, Answer)  # a failure always has a problem
    case.answer = case.student
    return True
