"""Where a wrong answer first goes wrong in the student's code: a step that never settles.

It stands after the steps that judge an answer right (alone or with stand-ins) and before any that explains
one, so every wrong answer (numbers or a crash) meets it once, as the check will judge it: with stand-ins
where carried_forward swapped that answer in. It only notes the question (`record.locate_later`); the
plugin locates it once all the student's checks are done and only if its check failed: the question is
asked again under the line tracer (`Probe.trace`) in the process that first answered it, where nothing
the traced run learns can reach a scored answer any more, and `attnkit/grading/locating.py` compares what
the student's lines bound with the steps the course's model declares, on the same inputs, and on a second
input of other numbers and sizes (`second_inputs`), traced the same way: a line is right only where it is
right on both. The catalogued
mistakes the check names in the end (one or two) are placed too, each on its own line. What it records
(`record.located`) changes the words of the feedback, never a score; a course that says `[feedback]
locate = "off"` spares the traced run.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from attnkit.grading.engine_ids import CRASH
from attnkit.grading.locating import Located, locate_traced
from attnkit.grading.memory import CheckRecord
from attnkit.grading.probe import Probe
from attnkit.grading.steps.case import Case
from attnkit.grading.steps.crashed import NOT_COMPILED
from attnkit.sandbox.protocol import CallRequest, Failure, ModuleRequest, Request, Trace, Value

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
                         probe.context.atol, mistakes, runs, witnesses(probe, request, with_standins, hidden))


def witnesses(probe: Probe, request: Request, with_standins: bool,
              hidden: bool) -> list[tuple[Trace, list[tuple[str, np.ndarray]], Request]]:
    """The question on `second_inputs`, traced as the first was, with the model's steps on each (none where
    the oracle knows no steps for it: a self-check records the lesson's inputs only; nor where the course's
    model cannot run it: sizes grown by one may no longer fit, as heads that must divide d_model)."""
    found = []
    for other in second_inputs(request):
        try:
            steps = probe.oracle.steps(other)
        except Exception:  # the kit's own question, not the course's: it just is no witness
            steps = []
        trace = probe.trace(other, with_standins=with_standins, hidden=hidden) if steps else None
        if trace is not None:
            found.append((trace, steps, other))
    return found


def _named(probe: Probe, record: CheckRecord) -> tuple[str, ...]:
    """The exercise's own catalogued mistakes the check names, if one or two (a mistake its model does not
    spell out has no run, so no line)."""
    own = probe.context.catalogue.ids_for(probe.context.exercise.id)
    named = tuple(dict.fromkeys(m for f in record.findings for m in f.mistakes if m in own))
    return named if 0 < len(named) <= MOST_PLACED else ()


SECOND_SEED = 16  # one fixed stream: the same question gets the same second input on every run


def second_inputs(request: Request) -> list[Request]:
    """The same question on other numbers and sizes, to trace beside it: a line whose numbers equal a step's
    by coincidence on one input (a symmetric example, rows that tie) rarely does on two, so the comparison
    calls a line right only where it is right on both (locating.Witness). Every array gets new numbers from
    a seeded generator, and every size grows by one, except sizes the request also gives as plain numbers
    (`SelfAttention(8, 3)` with (3, 8) weights: those sizes stay, so the layer still fits its weights) and
    size 1; sizes equal on the first input stay equal, so an input the code accepts stays one it accepts.
    The second input is never shown: only a line and a step name come of it. [] for a request with no
    arrays to vary (module constants, a layer built without input)."""
    if isinstance(request, CallRequest) and any(isinstance(a, np.ndarray) for a in request.args):
        vary = _varied(request.args, _plain_numbers(request.args), np.random.default_rng(SECOND_SEED))
        return [replace(request, args=vary)]
    if isinstance(request, ModuleRequest) and request.input is not None:
        kept, rng = _plain_numbers(request.init), np.random.default_rng(SECOND_SEED)
        weights = {name: _another(request.weights[name], kept, rng) for name in sorted(request.weights)}
        upstream = _another(request.upstream, kept, rng) if request.upstream is not None else None
        return [replace(request, weights=weights, input=_another(request.input, kept, rng), upstream=upstream)]
    return []


def _plain_numbers(values: tuple[Value, ...]) -> set[int]:
    return {v for v in values if type(v) is int}


def _varied(values: tuple[Value, ...], kept: set[int], rng: np.random.Generator) -> tuple[Value, ...]:
    return tuple(_another(v, kept, rng) if isinstance(v, np.ndarray) else v for v in values)


def _another(array: np.ndarray, kept: set[int], rng: np.random.Generator) -> np.ndarray:
    """New numbers with a spread like the array's, each size grown by one but size 1 and those `kept`."""
    spread = float(np.std(array)) if array.size and np.isfinite(array).all() else 0.0
    shape = tuple(n if n <= 1 or n in kept else n + 1 for n in array.shape)
    return rng.normal(scale=spread or 1.0, size=shape)
