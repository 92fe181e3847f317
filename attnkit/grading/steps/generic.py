"""The last step: no model or sign explained the numbers, so name a generic mistake with what was observed."""
from __future__ import annotations

from attnkit.grading.diagnosis import Finding
from attnkit.grading.steps.case import Case


def generic(case: Case) -> bool:
    mistake, detail = case.generic(case.values, case.expected)
    case.add(Finding.named(mistake, detail=detail))
    return True
