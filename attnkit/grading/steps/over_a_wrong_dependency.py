"""A right answer reached through a dependency already known wrong is asked again with correct stand-ins.

Error carried forward all the way down (docs/diagnosis.md): a dependency is known wrong when its own checks
named a mistake, or when it was itself spared by error carried forward (right only with stand-ins for what
it calls). Such an error may land inside the tolerance on some draws and outside on others, so an exercise
over it would be right as it stands on one draw and only with stand-ins on the next, and what its check
judges after the values (the layer's gradients, its follow-up questions) would carry the dependency's error
by the luck of the draw. So the question is asked again with correct stand-ins for every exercise it builds
on: right then too, that answer is the one the student earns and the check goes on with, graded on this
exercise's code alone, on every draw. Nothing is carried: the answer was right as it stood. Wrong with the
stand-ins, the code relies on its own dependencies (a scale moved from one to the other, a tuple of three
unpacked as three), which it may: the steps after this one earn the answer as it stands.

It runs before `right_answer`, which would otherwise settle the question on the plain answer.
"""
from __future__ import annotations

from attnkit.grading.steps.case import Case, problem
from attnkit.sandbox.protocol import Answer, ConstantsRequest


def over_a_wrong_dependency(case: Case) -> bool:
    context, memory, probe = case.context, case.memory, case.probe
    known_wrong = [d for d in context.course.dependencies(context.exercise.id)
                   if memory.found.get(d) or memory.carried.get(d)]
    if not known_wrong or not probe.standins_possible() or isinstance(case.request, ConstantsRequest):
        return False
    if problem(context, case.request, case.student, case.reference, case.names) is not None:
        return False  # wrong as it stands: error carried forward decides, as for any wrong answer
    ran, calls = probe.ran_with_standins, probe.standin_calls
    own = probe.run_with_standins(case.request)
    if problem(context, case.request, own, case.reference, case.names) is not None:
        probe.ran_with_standins, probe.standin_calls = ran, calls  # follow-up questions as the plain answer was asked
        return False
    assert isinstance(own, Answer)  # a failure always has a problem
    case.answer = own
    return True
