"""Wrong with batch dimensions in front, right on the first grid alone: code that handles one grid only."""
from __future__ import annotations

from attnkit.grading.diagnosis import Finding, layout, reference_values, same
from attnkit.grading.probe import returned, sliced
from attnkit.grading.steps.case import Case
from attnkit.sandbox.protocol import CallRequest, Failure


def batch_only(case: Case, generic: tuple[str, str] | None = None) -> bool:
    """Whether the question's first 2-D slice shows a batch-only mistake (and record it).

    On a crash (`generic` None), the batch-only mistake whose own code cannot run on this batch either, where the
    source shows its code (a crash alone is too little: other code crashes on batches too).
    On numbers (`generic`: what they show, and how), no mistake: had a batch-only mistake's model computed them,
    the explanations would have named it already, so the code goes wrong on batches some other way.
    """
    request = case.request
    if not isinstance(request, CallRequest):
        return False
    one_grid = sliced(request)
    student = case.probe.ask(one_grid)
    reference = case.probe.reference(one_grid)
    if isinstance(student, Failure):
        return False
    values = layout(returned(student), returned(reference), case.names)
    if isinstance(values, str):
        return False
    expected = reference_values(returned(reference))
    also: list[tuple[str, ...]] = []
    if not same(values, expected, case.context.rtol, case.context.atol):
        also = case.explanations(one_grid, values, 1)
        if len(also) != 1:
            return False  # wrong on one grid too, and not by one known mistake: not a sign of batches
    detail = ("right on a single grid" if not also else "on a single grid it makes one mistake only") + \
             ", but wrong once batch dimensions come in front"
    if generic is None:
        crashing = case.probe.oracle.crashing(request)
        batch = tuple(m for m in case.context.signature_mistakes("batch-only")
                      if m in crashing and case.context.shown(m))[:1]
        if not batch:
            return False  # no known mistake fails here as it does, or its code is not the student's: the crash
        if batch[0] in case.context.evident:
            detail += f" ({case.context.evident[batch[0]]})"
    else:
        batch, detail = (generic[0],), f"{detail}: {generic[1]}"
    case.add(Finding.named(*batch, *(also[0] if also else ()), detail=detail))
    return True


def numbers_wrong_only_on_batches(case: Case) -> bool:
    """No model explained the numbers: wrong only with batch dimensions is still a sign worth naming."""
    return case.batched and batch_only(case, generic=case.generic(case.values, case.expected))
