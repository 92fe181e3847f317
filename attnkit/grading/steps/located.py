"""Where a wrong answer first goes wrong in the student's code: a step that never settles.

It stands after the steps that judge an answer right (alone or with stand-ins) and before any that explains
one, so every wrong answer (numbers or a crash) meets it once, as the check will judge it: with stand-ins
where carried_forward swapped that answer in. It only notes the question (`record.locate_later`); the
plugin locates it once all the student's checks are done and only if its check failed: the question is
asked again under the line tracer (`Probe.trace`) in the process that first answered it, where nothing
the traced run learns can reach a scored answer any more, and `attnkit/grading/locating.py` compares what
the student's lines bound with the steps the course's model declares, on the same inputs. The catalogued
mistakes the check names in the end (one or two) are placed too, each on its own line. What it records
(`record.located`) changes the words of the feedback, never a score; a course that says `[feedback]
locate = "off"` spares the traced run.
"""
from __future__ import annotations

from attnkit.grading.engine_ids import CRASH
from attnkit.grading.locating import Located, locate_traced
from attnkit.grading.memory import CheckRecord
from attnkit.grading.probe import Probe
from attnkit.grading.steps.case import Case
from attnkit.grading.steps.crashed import NOT_COMPILED
from attnkit.sandbox.protocol import Failure, Request

MOST_PLACED = 2  # mistakes placed on lines of their own: as many as one answer is explained by


def located(case: Case) -> bool:
    """Note the wrong answer to be located (once a check: its first wrong answer). Never settles."""
    student, record = case.student, case.record
    if record.locate_later is not None or case.context.course.feedback.locate == "off":
        return False
    if isinstance(student, Failure) and (student.status != CRASH or student.type in NOT_COMPILED):
        return False
    probe, request, with_standins = case.probe, case.request, case.probe.ran_with_standins
    record.locate_later = lambda hidden: locate(probe, request, with_standins, hidden, record)
    return False


def locate(probe: Probe, request: Request, with_standins: bool, hidden: bool, record: CheckRecord) -> Located | None:
    """Trace the question again and locate its wrong answer, and the catalogued mistakes the check names."""
    trace = probe.trace(request, with_standins=with_standins, hidden=hidden)
    if trace is None:
        return None
    mistakes = _named(probe, record)
    runs = {subset: probe.oracle.flawed_steps(request, subset)
            for subset in [mistakes, *[tuple(m for m in mistakes if m != left) for left in mistakes]] if subset}
    return locate_traced(trace, probe.oracle.steps(request), request, probe.sandbox.package_root, probe.context.rtol,
                         probe.context.atol, mistakes, runs)


def _named(probe: Probe, record: CheckRecord) -> tuple[str, ...]:
    """The exercise's own catalogued mistakes the check names, if one or two (a mistake its model does not
    spell out has no run, so no line)."""
    own = {m.id for m in probe.context.catalogue.for_exercise(probe.context.exercise.id) if not m.generic}
    named = tuple(dict.fromkeys(m for f in record.findings for m in f.mistakes if m in own))
    return named if 0 < len(named) <= MOST_PLACED else ()
