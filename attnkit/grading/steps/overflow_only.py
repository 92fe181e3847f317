"""Non-finite here, finite on the same question with small numbers: the overflow mistake is named, and the steps
after this one go on with the small question, to say whatever else it shows."""
from __future__ import annotations

import numpy as np

from attnkit.grading.diagnosis import Finding, layout, reference_values, same
from attnkit.grading.probe import returned
from attnkit.grading.steps.case import Case
from attnkit.sandbox.protocol import Failure


def overflow_only(case: Case) -> bool:
    values, expected, tame = case.values, case.expected, case.tame
    if tame is None or all(np.isfinite(v).all() for v in values) or not all(np.isfinite(e).all() for e in expected):
        return False
    mistakes = case.context.signature_mistakes("overflow-only")
    student = case.probe.ask(tame)
    if not mistakes or isinstance(student, Failure):
        return False
    reference = case.probe.reference(tame)
    small = layout(returned(student), returned(reference), case.names)
    if isinstance(small, str) or not all(np.isfinite(v).all() for v in small):
        return False
    case.add(Finding([(mistakes[0],)], detail="large scores overflow to nan or inf, while the same scores made "
                                              "small give finite numbers", mistakes=(mistakes[0],)))
    expected_small = reference_values(returned(reference))
    if same(small, expected_small, case.context.rtol, case.context.atol):
        return True
    case.request, case.values, case.expected, case.tame, case.batched = tame, small, expected_small, None, False
    return False
