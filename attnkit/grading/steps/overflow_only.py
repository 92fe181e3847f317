"""Wrong on large numbers, right on the same question with small numbers: the overflow mistake is named by what
defines it, not by how it shows. Large scores may end in nan or inf (e^1000 is inf), or in finite wrong numbers
(an unshifted log-domain softmax gives zeros, `nan_to_num` hides the nan, one shift for the whole grid lets the
rows far below its max underflow). Where the large answer is not finite and the small one is finite but wrong
too, the mistake is named and the steps after this one go on with the small question, to say whatever else it
shows; a large answer that is finite and wrong beside a wrong small one is left to the models."""
from __future__ import annotations

import numpy as np

from attnkit.grading.diagnosis import Finding, layout, reference_values, same
from attnkit.grading.probe import returned
from attnkit.grading.steps.case import Case
from attnkit.sandbox.protocol import Failure


def overflow_only(case: Case) -> bool:
    values, expected, tame = case.values, case.expected, case.tame
    if tame is None or not all(np.isfinite(e).all() for e in expected):
        return False
    mistakes = case.context.signature_mistakes("overflow-only")
    if not mistakes:
        return False
    student = case.probe.ask(tame)
    if isinstance(student, Failure):
        return False
    reference = case.probe.reference(tame)
    small = layout(returned(student), returned(reference), case.names)
    if isinstance(small, str) or not all(np.isfinite(v).all() for v in small):
        return False
    expected_small = reference_values(returned(reference))
    small_right = same(small, expected_small, case.context.rtol, case.context.atol)
    finite_large = all(np.isfinite(v).all() for v in values)
    if finite_large and not small_right:
        return False
    seen = "holds nan or inf" if not finite_large else f"is wrong ({case.generic(values, expected)[1]})"
    made_small = "give the right numbers" if small_right else "give finite numbers"
    case.add(Finding([(mistakes[0],)], detail=f"on large scores your answer {seen}, while the same scores made "
                                              f"small {made_small}", mistakes=(mistakes[0],)))
    if small_right:
        return True
    case.request, case.values, case.expected, case.tame, case.batched = tame, small, expected_small, None, False
    return False
