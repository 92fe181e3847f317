"""The student's code failed (crash, timeout, not implemented...): say how, or name the mistake behind it."""
from __future__ import annotations

from attnkit.grading.diagnosis import Finding
from attnkit.grading.engine_ids import CRASH
from attnkit.grading.steps.batch_only import batch_only
from attnkit.grading.steps.case import Case, status_finding
from attnkit.sandbox.protocol import Failure

NOT_COMPILED = ("SyntaxError", "IndentationError", "TabError")  # a crash no catalogued mistake can explain


def crashed(case: Case) -> bool:
    failure = case.student
    if not isinstance(failure, Failure):
        return False
    if not (case.batched and batch_only(case)):
        case.add(_crash_finding(case, failure))
    return True


def _crash_finding(case: Case, failure: Failure) -> Finding:
    """A crash, or the mistake (proven by numbers in another check) whose code cannot run on this input."""
    finding = status_finding(case.context, failure)
    if finding.mistakes != (CRASH,) or failure.type in NOT_COMPILED:  # a catalogued mistake is code that runs
        return finding
    crashing = case.probe.oracle.crashing(case.request)
    if not crashing:
        return finding
    return Finding([(m,) for m in crashing], detail=finding.detail, fallback=CRASH, proven_only=True)
