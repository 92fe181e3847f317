"""The last step: no model or sign explained the numbers, so name a generic mistake with what was observed.

The numbers themselves are kept on the check's record (`WrongAnswer`): the class report puts together the
students whose unexplained answers agree on the run's inputs.
"""
from __future__ import annotations

from attnkit.grading.diagnosis import Finding
from attnkit.grading.probe import numbers_key
from attnkit.grading.results import WrongAnswer
from attnkit.grading.steps.case import Case


def generic(case: Case) -> bool:
    mistake, detail = case.generic(case.values, case.expected)
    case.add(Finding.named(mistake, detail=detail))
    if case.record.answer is None:
        case.record.answer = WrongAnswer.of(numbers_key(case.request), case.values, case.context.rtol,
                                            case.context.atol)
    return True
