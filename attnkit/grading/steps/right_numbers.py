"""The numbers are right after all (what was wrong is noted already, such as a changed input): nothing more."""
from __future__ import annotations

from attnkit.grading.diagnosis import same
from attnkit.grading.steps.case import Case


def right_numbers(case: Case) -> bool:
    return same(case.values, case.expected, case.context.rtol, case.context.atol)
