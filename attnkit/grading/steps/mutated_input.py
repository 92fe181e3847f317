"""Arguments that came back changed: the code changed its input in place (noted; the numbers are judged on)."""
from __future__ import annotations

from attnkit.grading.diagnosis import Finding, changed_inputs
from attnkit.grading.engine_ids import MUTATES_INPUT
from attnkit.grading.steps.case import Case
from attnkit.sandbox.protocol import Answer, CallRequest


def mutated_input(case: Case) -> bool:
    request, student = case.request, case.student
    if isinstance(request, CallRequest) and isinstance(student, Answer):
        changed = changed_inputs(request.args, student.inputs_after, request.dtype)
        if changed:
            which = " and ".join(f"argument {i}" for i in changed)
            case.add(Finding.named(MUTATES_INPUT,
                                   detail=f"{which} came back changed: your code changed its input in place"))
    return False
