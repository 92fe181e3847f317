"""The catalogued mistakes whose models give these numbers: one mistake, else two (the heart of diagnosis).

What one mistake alone explains is remembered for the exercise's later answers; a pair is not tried again
once no pair explained an answer (the same code, so none will). An answer of several outputs (attention's
output and weights) is also modelled output by output: a mistake made in one of them only (weights returned
from unscaled scores while the output is blended with the right ones; the output rescaled after the blend)
gives the model's numbers where the answer is wrong and the reference's where it is right.
"""
from __future__ import annotations

from attnkit.grading.diagnosis import Finding, same
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
    return in_one_output(case)


def in_one_output(case: Case) -> bool:
    """One mistake, made in the outputs that are wrong only: the others are the reference's."""
    rtol, atol = case.context.rtol, case.context.atol
    values, expected = case.values, case.expected
    wrong = [i for i, (got, want) in enumerate(zip(values, expected)) if not same([got], [want], rtol, atol)]
    if len(values) < 2 or len(wrong) == len(values):
        return False
    found: list[tuple[str, ...]] = []
    for candidate in case.probe.oracle.candidates(case.request, 1):
        ids = tuple(sorted(candidate.mistakes))
        if ids not in found and len(candidate.answer) == len(values) and all(
                same([values[i]], [candidate.answer[i]], rtol, atol) for i in wrong):
            found.append(ids)
    if not found:
        return False
    which = " and ".join(f"`{case.names[i]}`" for i in wrong)
    right = " and ".join(f"`{name}`" for i, name in enumerate(case.names) if i not in wrong)
    case.add(Finding(found, detail=f"{right} is right, and only {which} shows this mistake",
                     fallback=case.generic(values, expected)[0], modelled=True))
    return True
