"""Routines the exercise must not use (softmax-builtin): reached while the code ran, or named in its source.

The exercise's sandbox refuses them at torch's dispatcher (`attnkit.sandbox.refusals`): a call to one
failed, or its failure was swallowed and the reply names it (which may add a use, never clear one). The
source is read in the trusted process, from files the student's process never touched: a use it names
decides too (library code no refused kernel sees: scipy's softmax), and the places it cannot follow (a
thread pool, a computed name) are only the feedback's words once a refused routine was reached: threads
and Tensor subclasses are honest code too. Reported once per check; never settles the question.
"""
from __future__ import annotations

from attnkit.grading.diagnosis import Finding
from attnkit.grading.steps.case import Case, reached_routines, where_unchecked


def forbidden_names(case: Case) -> bool:
    if case.record.reported_forbidden:
        return False
    for mistake in case.context.forbidding:
        reached = reached_routines(mistake, case.student)
        uses = list(case.context.forbidden) + (reached + where_unchecked(case.context) if reached else [])
        if uses:
            case.record.reported_forbidden = True
            case.add(Finding.named(mistake.id, detail="; ".join(uses[:3])))
    return False
