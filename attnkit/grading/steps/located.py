"""Where a wrong answer first goes wrong in the student's code: a step that never settles.

It stands after the steps that judge an answer right (alone or with stand-ins) and before any that explains
one, so every wrong answer (numbers or a crash) meets it once, as the check will judge it: with stand-ins
where carried_forward swapped that answer in. The answer's request runs again under the line tracer
(`Probe.trace`, a process of its own) and `attnkit/grading/locating.py` compares what the student's lines
bound with the steps the course's model declares, on the same inputs. The catalogued mistakes these numbers
show (one, else two, as mistake_models finds them) are placed too, each on its own line. What it records
(`record.located`) changes the words of the feedback, never a score; a course that says `[feedback]
locate = "off"` spares the traced run.
"""
from __future__ import annotations

from attnkit.grading.diagnosis import layout, reference_values, same
from attnkit.grading.engine_ids import CRASH, GENERIC_IDS
from attnkit.grading.locating import locate_traced
from attnkit.grading.probe import returned
from attnkit.grading.steps.case import Case, finite
from attnkit.grading.steps.crashed import NOT_COMPILED
from attnkit.sandbox.protocol import Failure


def located(case: Case) -> bool:
    """Trace the wrong answer and locate it (once a check: its first wrong answer). Never settles."""
    student = case.student
    if case.record.located is not None or case.context.course.feedback.locate == "off":
        return False
    if isinstance(student, Failure) and (student.status != CRASH or student.type in NOT_COMPILED):
        return False
    trace = case.probe.trace(case.request)
    if trace is None:
        return False
    mistakes = _catalogued(case)
    runs = {subset: case.probe.oracle.flawed_steps(case.request, subset)
            for subset in [mistakes, *[tuple(m for m in mistakes if m != left) for left in mistakes]] if subset}
    case.record.located = locate_traced(trace, case.probe.oracle.steps(case.request), case.request,
                                        case.probe.sandbox.package_root, case.context.rtol, case.context.atol,
                                        mistakes, runs)
    return False


def _catalogued(case: Case) -> tuple[str, ...]:
    """The one configuration of catalogued mistakes (one, else two) whose numbers the answer has, if any."""
    if isinstance(case.student, Failure) or case.student.returned is None:
        return ()
    values = layout(case.student.returned, returned(case.reference), case.names)
    if isinstance(values, str) or not finite(values) or \
            same(values, reference_values(returned(case.reference)), case.context.rtol, case.context.atol):
        return ()
    for size in (1, 2):
        found = case.explanations(case.request, values, size)
        if found:
            return found[0] if len(found) == 1 and not set(found[0]) & set(GENERIC_IDS) else ()
    return ()
