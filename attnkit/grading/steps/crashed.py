"""The student's code failed (crash, timeout, not implemented...): say how, or name the mistake behind it."""
from __future__ import annotations

from attnkit.grading.diagnosis import Finding
from attnkit.grading.engine_ids import CRASH
from attnkit.grading.steps.batch_only import batch_only
from attnkit.grading.steps.case import Case, status_finding
from attnkit.sandbox import refusals
from attnkit.sandbox.protocol import Failure

NOT_COMPILED = ("SyntaxError", "IndentationError", "TabError")  # a crash no catalogued mistake can explain


def crashed(case: Case) -> bool:
    failure = case.student
    if not isinstance(failure, Failure):
        return False
    if case.record.reported_forbidden and refusals.is_refusal(failure.message):
        return True  # it failed because it reached a refused routine: that is the finding (forbidden_names)
    if not (case.batched and batch_only(case)):
        case.add(_crash_finding(case, failure))
    return True


def _crash_finding(case: Case, failure: Failure) -> Finding:
    """A crash, or the mistake whose code cannot run on this input: the one the source shows, else one proven
    by numbers in another check."""
    finding = status_finding(case.context, failure)
    if finding.mistakes != (CRASH,) or failure.type in NOT_COMPILED:  # a catalogued mistake is code that runs
        return finding
    crashing = case.probe.oracle.crashing(case.request)
    shown = [m for m in crashing if m in case.context.evident]
    if shown:  # the mistake's code is in the source and crashes here as the student's did
        return Finding.named(shown[0], detail=f"{finding.detail}; {case.context.evident[shown[0]]}")
    if not crashing:
        return finding
    return Finding([(m,) for m in crashing], detail=finding.detail, fallback=CRASH, proven_only=True)
