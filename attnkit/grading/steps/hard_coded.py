"""An answer that does not depend on its input: hard-coded. Either the right answer to an earlier question on
other numbers, or the same numbers the student's code gave an earlier question on other numbers, where one of
the two is its question's answer as the lesson prints it, rounded (a function returning the lesson's table).
Questions on the same numbers asked another way (another `dim`) do not count.

The earlier question's answer was described under a generic id when it was asked (rounded numbers are no
mistake's); it is the same constant, so it is named hard-coded too, and the exercise's findings agree.
"""
from __future__ import annotations

import numpy as np

from attnkit.grading.diagnosis import Finding, Values, same
from attnkit.grading.engine_ids import HARD_CODED, WRONG_SHAPE, WRONG_VALUES
from attnkit.grading.probe import numbers_key
from attnkit.grading.steps.case import Case

DETAIL = ("your answer to these inputs is the right answer to other inputs (such as the lesson's example): it "
          "does not depend on its input")
CONSTANT = ("your answer to these inputs is the same as to other inputs, the lesson's numbers rounded: it does "
            "not depend on its input")
PRINTED = 0.01  # as printed: each number within 1% of the largest expected one (at least 0.01) of the right one


def hard_coded(case: Case) -> bool:
    key, rtol, atol = numbers_key(case.request), case.context.rtol, case.context.atol
    for earlier_key, earlier in case.memory.exercise.answers:
        if earlier_key != key and same(case.values, earlier, rtol, atol):
            case.add(Finding.named(HARD_CODED, detail=DETAIL))
            return True
    alike = [q for q in case.memory.exercise.questions if same(case.values, q.values, rtol, atol)]
    if not any(numbers_key(q.request) != key for q in alike):
        return False
    if not any(printed(q.values, q.expected) for q in alike) and not printed(case.values, case.expected):
        return False
    for question in alike:
        for finding in question.findings:
            if not finding.modelled and set(finding.explanations) <= {(WRONG_VALUES,), (WRONG_SHAPE,)}:
                finding.explanations, finding.detail = [(HARD_CODED,)], CONSTANT
    case.add(Finding.named(HARD_CODED, detail=CONSTANT))
    return True


def printed(values: Values, expected: Values) -> bool:
    """The right numbers as the lesson prints them: rounded, each within 1% of the largest (at least 0.01)."""
    def close(got: np.ndarray, want: np.ndarray) -> bool:
        within = PRINTED * max(1.0, float(np.abs(want).max(initial=0)))
        return got.shape == want.shape and bool(np.all(np.abs(got - want) <= within))

    return len(values) == len(expected) and all(close(got, want) for got, want in zip(values, expected))
