"""A mistake an earlier answer of this exercise proved is tried first: the same code answered both."""
from __future__ import annotations

from attnkit.grading.diagnosis import Finding
from attnkit.grading.steps.case import Case, finite


def established(case: Case) -> bool:
    if not finite(case.values):
        return False
    for proven in case.memory.exercise.established:
        found = case.explanations(case.request, case.values, len(proven), proven)
        if found:
            case.add(Finding(found, fallback=case.generic(case.values, case.expected)[0], modelled=True))
            return True
    return False
