"""The hidden inputs tell every catalogued mistake apart, and the diagnosis names each as itself.

Runs the real graders and the real diagnosis over the reference and every catalogued variant, with
the requests executed in this process (`kit.InProcessSandbox`: the variants are the kit's own code),
so the proof is fast (a mistake whose evidence is a routine the sandbox refuses runs in a real one);
`test_class_grading.py` grades the same variants again through the real sandbox and `attnkit grade`.
"""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from attnkit.grading.plugin import Submission
from attnkit.grading.session import run_checks
from attnkit.sandbox.protocol import Answer
from attnkit.sandbox.runner import SandboxedSubmission
from kit import CATALOGUE, COURSE, InProcessSandbox, reference_submission, variant_submission

VARIANTS = [(m.id, i, v) for m in CATALOGUE.with_variants() for i, v in enumerate(m.variants)]


@pytest.fixture(scope="module")
def hidden_requests(tmp_path_factory) -> dict[str, list]:
    """Every request the hidden checks make of an exercise's own module."""
    root = reference_submission(tmp_path_factory.mktemp("reference") / "reference")
    sandbox = InProcessSandbox(root)
    run_checks(COURSE, [Submission("reference", root)], hidden_only=True, open_sandbox=lambda _: sandbox)
    by_module: dict[str, list] = defaultdict(list)
    for request in sandbox.requests:
        if not getattr(request, "standins", ()):
            by_module[request.module].append(request)
    return by_module


@pytest.fixture(scope="module")
def variants(tmp_path_factory) -> dict[tuple[str, int], Path]:
    folder = tmp_path_factory.mktemp("variants")
    return {(m, i): variant_submission(folder / f"{m}--{i}", v) for m, i, v in VARIANTS}


@pytest.fixture(scope="module")
def graded(variants) -> dict[str, object]:
    """Every variant graded in one session, each in a sandbox of its own."""
    submissions = [Submission(f"{m}--{i}", root) for (m, i), root in variants.items()]
    return {r.student: r for r in run_checks(COURSE, submissions, open_sandbox=InProcessSandbox)}


def outcome(reply) -> object:
    """What a reply tells apart: its numbers (values, gradients, constants, the make-up of a layer) and the
    built-in calls seen (evidence a grader may use against a student), or only that it failed."""
    if not isinstance(reply, Answer):
        return "failed"
    arrays = [np.array([len(reply.calls)])]
    if reply.returned is not None:
        arrays += [reply.returned.array] if reply.returned.kind == "array" else [i.array for i in reply.returned.items]
    if reply.layer is not None:
        arrays += [reply.layer.grads[k] for k in sorted(reply.layer.grads)]
        arrays += [np.array([p.has_bias, p.present] + list(p.weight_shape or ())) for p in reply.layer.parts.values()]
    arrays += [r.array for _, r in sorted(reply.constants.items())]
    return arrays


def _replies(root: Path, mistake, requests: list) -> list:
    """A variant's replies: in this process, or, for a mistake that forbids library routines (whose evidence
    is what the sandbox refuses, `refusals`), in a real sandbox that refuses them."""
    if not mistake.forbid:
        sandbox = InProcessSandbox(root)
        return [sandbox.run(r) for r in requests]
    with SandboxedSubmission(root) as sandbox:
        sandbox.begin_exercise(tuple(mistake.forbid))
        return [sandbox.run(r) for r in requests]


def apart(a: object, b: object) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a != b
    return len(a) != len(b) or any(
        x is None or y is None or x.shape != y.shape or not np.allclose(x, y, rtol=1e-4, atol=1e-5)
        for x, y in zip(a, b) if not (x is None and y is None))


@pytest.mark.parametrize("exercise", COURSE.exercises, ids=COURSE.ids)
def test_every_variant_differs_from_the_reference_and_from_every_other_on_a_hidden_check(
        exercise, hidden_requests, variants, tmp_path):
    requests = hidden_requests[exercise.module]
    assert requests, f"{exercise.id} has no hidden check"
    reference = InProcessSandbox(reference_submission(tmp_path / "reference"))
    answers = {"reference": [outcome(reference.run(r)) for r in requests]}
    for (mistake, index), root in variants.items():
        if CATALOGUE[mistake].exercise == exercise.id:
            answers[f"{mistake}--{index}"] = [outcome(reply) for reply in _replies(root, CATALOGUE[mistake], requests)]
    names = sorted(answers)
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            if first.split("--")[0] == second.split("--")[0]:
                continue  # two spellings of one mistake may agree
            assert any(apart(a, b) for a, b in zip(answers[first], answers[second])), f"{first} = {second}"


@pytest.mark.parametrize("mistake_id,index,variant", VARIANTS, ids=[f"{m}-{i}" for m, i, _ in VARIANTS])
def test_every_variant_is_named_as_itself(mistake_id, index, variant, graded):
    exercise = graded[f"{mistake_id}--{index}"].exercises[CATALOGUE[mistake_id].exercise]
    assert exercise.score < exercise.max_score
    assert mistake_id in exercise.mistakes, [c.message for c in exercise.checks if not c.passed]
