"""The catalogued mistakes whose models give these numbers: one mistake, else two (the heart of diagnosis).

What one mistake alone explains is remembered for the exercise's later answers; a pair is not tried again
once no pair explained an answer (the same code, so none will).
"""
from __future__ import annotations

from attnkit.grading.diagnosis import Finding
from attnkit.grading.steps.case import Case, finite


def mistake_models(case: Case) -> bool:
    if not finite(case.values):
        return False
    memory = case.memory.exercise
    for size in (1,) if memory.no_pair else (1, 2):
        found = case.explanations(case.request, case.values, size)
        if found:
            case.add(Finding(found, fallback=case.generic(case.values, case.expected)[0], modelled=True))
            if len(found) == 1 and found[0] not in memory.established:
                memory.established.append(found[0])
            return True
        memory.no_pair = size == 2
    return False
