"""Where each catalogued mistake is made: the course's model run with the mistake on, against the trace.

A mistake named for a wrong answer is placed by the model's own account: run with the mistake on, it
parts from the reference at some step, and the student's binding of those flawed numbers is the
mistake's line. With two mistakes, each is the step where the run with both parts from the run with
the other alone, so each gets its own line (docs/diagnosis.md, "How a wrong answer is located", 5).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from attnkit.grading.diagnosis import same
from attnkit.grading.matching import Step, believable, match, matches
from attnkit.grading.sources import Source
from attnkit.sandbox.protocol import Answer, Binding, Failure, Trace

FlawedRun = tuple[list[np.ndarray], list[tuple[str, np.ndarray]]]  # a flawed model's answer, and its steps


def mistake_lines(trace: Trace, steps: Sequence[Step], runs: Mapping[tuple[str, ...], Sequence[FlawedRun]],
                  mistakes: tuple[str, ...], sources: dict[str, Source], rtol: float,
                  atol: float) -> dict[str, tuple[str, int, str]]:
    """Where each of the named mistakes is made: mistake -> (file, line, step).

    `runs` holds the model's runs with the mistakes on and with each left out (the reference for one
    mistake). A mistake's step is the first where the run with all of them on parts from the run without
    it; its line, the student's last binding of that step's flawed numbers before the next flawed step's.
    """
    if not believable(trace.bindings, sources):
        return {}
    answer = _returned_arrays(trace.reply)
    whole = _best_run(runs.get(mistakes, ()), trace.bindings, steps, answer, rtol, atol)
    if whole is None:
        return {}
    found: dict[str, tuple[str, int, str]] = {}
    for mistake in mistakes:
        others = tuple(m for m in mistakes if m != mistake)
        without = list(steps) if not others else _best_run(runs.get(others, ()), trace.bindings, steps, None,
                                                           rtol, atol)
        if without is None:
            continue
        at = _parting_step(whole, without, rtol, atol)
        if at is None:
            continue
        binding = _binding_of(trace.bindings, whole, at, steps, rtol, atol)
        if binding is not None:
            found[mistake] = (binding.file, sources[binding.file].statements[binding.line], whole[at][0])
    return found


def _best_run(runs: Sequence[FlawedRun], bindings: Sequence[Binding], steps: Sequence[Step],
              answer: list[np.ndarray] | None, rtol: float, atol: float) -> list[Step] | None:
    """The spelling that gives the student's answer and parts from the reference latest (a harmless
    variant, such as where the max is taken, is the reference's own wherever it can be), then whose
    steps the student's bindings hold most of."""
    giving = [run for run in runs if answer is None or same(list(run[0]), answer, rtol, atol)] or list(runs)
    best, score = None, (-1, -1)
    for _, run in giving:
        tensors = [(name, value) for name, value in run if value.size > 1]
        held = sum(any(b.value is not None and match(b.value, value, rtol, atol) == 2 for b in bindings)
                   for _, value in tensors)
        parting = _parting_step(tensors, steps, rtol, atol)
        rank = (len(tensors) if parting is None else parting, held)
        if rank > score:
            best, score = tensors, rank
    return best


def _holds_any(binding: Binding, values: Sequence[np.ndarray], rtol: float, atol: float) -> bool:
    return binding.value is not None and any(matches(binding.value, value, rtol, atol) for value in values)


def _returned_arrays(reply: Answer | Failure) -> list[np.ndarray] | None:
    """What the traced run returned, as arrays (None where it is not arrays)."""
    returned = reply.returned if isinstance(reply, Answer) else None
    if returned is None:
        return None
    if returned.kind == "array" and returned.array is not None:
        return [returned.array]
    if returned.kind == "sequence" and all(item.kind == "array" and item.array is not None for item in returned.items):
        return [item.array for item in returned.items if item.array is not None]
    return None


def _parting_step(run: Sequence[Step], other: Sequence[Step], rtol: float, atol: float) -> int | None:
    """The first step of `run` whose numbers are not the same step's in `other`."""
    known = dict(reversed([(name, value) for name, value in other if value.size > 1]))
    for index, (name, value) in enumerate(run):
        if name not in known or not matches(value, known[name], rtol, atol):
            return index
    return None


def _binding_of(bindings: Sequence[Binding], run: Sequence[Step], at: int, steps: Sequence[Step], rtol: float,
                atol: float) -> Binding | None:
    """The student's last binding of step `at`'s flawed numbers before one of a later flawed step's. Not one
    that holds a right step too (a shift the flawed run keeps as its powers): the numbers cannot say which
    of the two that line meant, so the mistake is not placed there."""
    target = run[at][1]
    right = [value for _, value in steps if value.size > 1]
    hits = [i for i, b in enumerate(bindings) if b.value is not None and match(b.value, target, rtol, atol) == 2]
    later = [i for i, b in enumerate(bindings) if b.value is not None and not matches(b.value, target, rtol, atol)
             and any(match(b.value, value, rtol, atol) == 2 for _, value in run[at + 1:])]
    wrong = [i for i in hits if not _holds_any(bindings[i], right, rtol, atol)]
    if not wrong:
        return None
    before = [i for i in wrong if not later or i < later[0]]
    return bindings[before[-1] if before else wrong[0]]
