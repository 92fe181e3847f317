"""Where no stand-in can be made (a self-check has no reference), a dependency that failed its own checks is
named as the cause: this exercise cannot be judged on its own until that is fixed."""
from __future__ import annotations

from attnkit.grading.diagnosis import Finding
from attnkit.grading.steps.case import Case


def failing_dependency(case: Case) -> bool:
    if case.probe.standins_possible():
        return False
    context = case.context
    exercise = context.exercise.id
    for owner in context.course.dependencies(exercise):
        mistakes = case.memory.found.get(owner)
        if mistakes:
            module = context.course.exercise(owner).module
            case.add(Finding.named(*mistakes, detail=f"{exercise} fails because your {owner} does "
                                                     f"({', '.join(mistakes)}): fix {module}.py first, then check "
                                                     f"{exercise} again"))
            return True
    return False
