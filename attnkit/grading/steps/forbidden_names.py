"""Names the exercise must not use (softmax-builtin): found in its submitted source, or seen called at run time.

The source is read in the trusted process, from files the student's process never touched; the calls the
sandbox saw may add a use, never clear one. Reported once per check; never settles the question.
"""
from __future__ import annotations

from attnkit.grading.diagnosis import Finding
from attnkit.grading.source_rules import ForbiddenNames
from attnkit.grading.steps.case import Case


def forbidden_names(case: Case) -> bool:
    if case.record.reported_forbidden:
        return False
    seen = list(case.context.forbidden)
    for mistake in case.context.catalogue.for_exercise(case.context.exercise.id):
        if not mistake.forbid:
            continue
        names = ForbiddenNames(mistake.forbid)  # matched as in the source: log_softmax holds softmax
        called = [c for c in getattr(case.student, "calls", ()) if names.match(c)]
        uses = seen + [f"your code called {c} while it ran" for c in called]
        if uses:
            case.record.reported_forbidden = True
            case.add(Finding.named(mistake.id, detail="; ".join(uses[:3])))
    return False
