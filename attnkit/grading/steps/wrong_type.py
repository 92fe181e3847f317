"""An answer of the wrong kind or layout (a list for an array, a tuple of the wrong length...); otherwise lay its
numbers out beside the reference's for the steps after this one."""
from __future__ import annotations

from attnkit.grading.diagnosis import Finding, layout, reference_values
from attnkit.grading.engine_ids import WRONG_TYPE
from attnkit.grading.probe import returned
from attnkit.grading.steps.case import Case
from attnkit.sandbox.protocol import Answer


def wrong_type(case: Case) -> bool:
    assert isinstance(case.student, Answer)  # the crash step settled every failure
    values = layout(returned(case.student), returned(case.reference), case.names)
    if isinstance(values, str):
        case.add(Finding.named(WRONG_TYPE, detail=f"your {case.context.function} {values}"))
        return True
    case.values, case.expected = values, reference_values(returned(case.reference))
    return False
