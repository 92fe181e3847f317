"""Where no stand-in can be made (a self-check has no reference), a dependency that failed its own checks is
named as the cause: this exercise cannot be judged on its own until that is fixed.

The feedback names the module where each mistake is, not the nearest exercise that showed it: a layer over an
attention that fails for its softmax is told to fix softmax.py. Every failing dependency is named (softmax and
scaled_scores both, where both are wrong); one whose mistakes are all those of the exercises it builds on fails
only because of them and is not named again.
"""
from __future__ import annotations

from attnkit.grading.diagnosis import Finding
from attnkit.grading.steps.case import Case


def failing_dependency(case: Case) -> bool:
    if case.probe.standins_possible():
        return False
    context = case.context
    course, exercise, found = context.course, context.exercise.id, case.memory.found
    failing = {owner: found[owner] for owner in course.dependencies(exercise) if found.get(owner)}
    causes = {owner: mistakes for owner, mistakes in failing.items()
              if not set(mistakes) <= {m for below in course.dependencies(owner) for m in failing.get(below, [])}}
    if not causes:
        return False
    said = " and ".join(f"your {owner} does ({', '.join(mistakes)})" for owner, mistakes in causes.items())
    files = " and ".join(f"{course.exercise(owner).module}.py" for owner in causes)
    mistakes = list(dict.fromkeys(m for ms in causes.values() for m in ms))
    case.add(Finding.named(*mistakes, detail=f"{exercise} fails because {said}: fix {files} first, then check "
                                             f"{exercise} again"))
    return True
