"""The right answer to an earlier question on other numbers: hard-coded (it does not depend on its input).
Questions on the same numbers asked another way (another `dim`) do not count."""
from __future__ import annotations

from attnkit.grading.diagnosis import Finding, same
from attnkit.grading.engine_ids import HARD_CODED
from attnkit.grading.probe import numbers_key
from attnkit.grading.steps.case import Case


def hard_coded(case: Case) -> bool:
    key = numbers_key(case.request)
    for earlier_key, earlier in case.memory.exercise.answers:
        if earlier_key != key and same(case.values, earlier, case.context.rtol, case.context.atol):
            case.add(Finding.named(HARD_CODED, detail="your answer to these inputs is the right answer to other "
                                                        "inputs (such as the lesson's example): it does not depend "
                                                        "on its input"))
            return True
    return False
