"""No wrong computation sits near a hidden check's tolerance: the verdict cannot depend on the draw.

Hidden inputs are drawn fresh for every assignment (a regrade reuses them, `--new-inputs` draws again),
so a check's verdict must not depend on them. For each hidden check and each computation, catalogued
(the mistakes' variants) or plausible and uncatalogued (another base, normalising by the maximum, half
precision, near-one-hot weights, float32 inside, which is allowed), the check's inputs are drawn afresh
several times and the answer's distance from the reference's is measured in tolerances (the largest
|answer - reference| / (atol + rtol |reference|) over the check's numbers; another shape, a non-finite
number where the reference has a finite one, a crash or a changed input count as infinitely far). On
every draw the distance must stay on one side, far from 1: below PASSES (the check passes it, always)
or above FAILS (the check fails it, always). `test_separation.py` proves the mistakes apart from each
other on one draw; this proves each verdict the same on every draw.

The requests are the hidden checks' own, made by running the real graders on the reference in this
process (`kit.InProcessSandbox`), each tagged with the check that drew its inputs.
"""
from __future__ import annotations

import importlib.util
import inspect
from collections import defaultdict

import numpy as np
import pytest

from attnkit.grading.diagnosis import changed_inputs
from attnkit.grading.plugin import GradingPlugin, Submission, new_run_salt
from attnkit.grading.session import make_oracle, run_checks
from attnkit.sandbox.protocol import Answer, CallRequest
from kit import CATALOGUE, COURSE, PLAUSIBLE_MISTAKES, InProcessSandbox, reference_submission, variant_submission

DRAWS = 6      # fresh hidden inputs a check is asked on
PASSES = 0.5   # at most half the tolerance away on every draw: passed every time
FAILS = 2.0    # at least twice the tolerance away on some input of every draw: failed every time

ACCEPTED = {"softmax-float32-inside", "scores-float32-inside",  # float32 arithmetic inside is fine (course.toml)
            "softmax-minus-mean", "softmax-minus-global-max", "softmax-log-sum-exp"}  # right, and stable here


def draws_inputs(module: str) -> bool:
    """Whether a hidden check of the module's exercise draws its inputs (asks for `rng`); one that does not
    asks the same every run (cake's constants), so its verdict cannot depend on a draw."""
    exercise = next(e for e in COURSE.exercises if e.module == module)
    spec = importlib.util.spec_from_file_location(f"margins_{module}", COURSE.grader_file(exercise))
    assert spec is not None and spec.loader is not None
    grader = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(grader)
    return any("rng" in inspect.signature(getattr(grader, c.test)).parameters for c in exercise.checks if not c.public)


COMPUTATIONS = [(name, v) for name, v in [(f"{m.id}--{i}", v) for m in CATALOGUE.with_variants()
                                          for i, v in enumerate(m.variants)] + sorted(PLAUSIBLE_MISTAKES.items())
                if draws_inputs(v.module)]


@pytest.fixture(scope="module")
def draws(tmp_path_factory, monkeypatch_module) -> list[dict[tuple[str, str], list]]:
    """Per draw, the requests each hidden check makes of its exercise's own module."""
    current: list[tuple[str, str]] = []
    drawing = GradingPlugin._rng

    def noting(plugin, state, exercise, check):  # the check that is about to draw is the one asking
        current[:] = [(exercise.id, check.test)]
        return drawing(plugin, state, exercise, check)

    monkeypatch_module.setattr(GradingPlugin, "_rng", noting)
    root = reference_submission(tmp_path_factory.mktemp("reference") / "reference")
    oracle = make_oracle(COURSE)
    found = []
    for _ in range(DRAWS):
        sandbox = InProcessSandbox(root)
        tagged: dict[tuple[str, str], list] = defaultdict(list)
        running = sandbox.run

        def run(request, on_standin=None, running=running, tagged=tagged):
            if current and not getattr(request, "standins", ()):
                tagged[current[0]].append(request)
            return running(request, on_standin)

        sandbox.run = run  # type: ignore[method-assign]
        run_checks(COURSE, [Submission("reference", root)], hidden_only=True, oracle=oracle,
                   open_sandbox=lambda _, sandbox=sandbox: sandbox, run_salt=new_run_salt())
        found.append(dict(tagged))
    oracle.close()
    return found


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def distance(request, reply, reference: Answer) -> float:
    """How far a reply is from the reference's answer, in tolerances (see the module's docstring)."""
    if not isinstance(reply, Answer):
        return np.inf
    if isinstance(request, CallRequest) and changed_inputs(request.args, reply.inputs_after, request.dtype):
        return np.inf
    got, want = numbers(reply), numbers(reference)
    if len(got) != len(want):
        return np.inf
    worst = 0.0
    rtol, atol = COURSE.settings.rtol, COURSE.settings.atol
    for x, y in zip(got, want):
        if x.shape != y.shape or not np.array_equal(np.isfinite(x), np.isfinite(y)):
            return np.inf
        finite = np.isfinite(y)
        if finite.any():
            worst = max(worst, float(np.max(np.abs(x[finite] - y[finite]) / (atol + rtol * np.abs(y[finite])))))
    return worst


def numbers(reply: Answer) -> list[np.ndarray]:
    """Everything a check compares: values, a layer's gradients (the gradient check's tolerance is the
    course's), constants."""
    arrays = []
    if reply.returned is not None:
        items = [reply.returned] if reply.returned.kind == "array" else list(reply.returned.items)
        arrays += [np.zeros(0) if i.array is None else i.array for i in items]
    if reply.layer is not None:
        arrays += [np.zeros(0) if g is None else g for _, g in sorted(reply.layer.grads.items())]
    arrays += [r.array for _, r in sorted(reply.constants.items()) if r.array is not None]
    return arrays


@pytest.mark.parametrize("name,variant", COMPUTATIONS, ids=[name for name, _ in COMPUTATIONS])
def test_every_computation_stays_far_from_every_hidden_tolerance(name, variant, draws, tmp_path):
    exercise = next(e.id for e in COURSE.exercises if e.module == variant.module)
    root = variant_submission(tmp_path / "variant", variant)
    reference = InProcessSandbox(reference_submission(tmp_path / "reference"))
    student = InProcessSandbox(root)
    verdicts: dict[str, list[float]] = defaultdict(list)
    for requests in draws:
        for (owner, check), asked in requests.items():
            if owner == exercise:
                verdicts[check].append(max(distance(r, student.run(r), reference.run(r)) for r in asked))
    assert verdicts, f"{exercise} has no hidden check that draws its inputs"
    for check, distances in verdicts.items():
        always_passed = all(d <= PASSES for d in distances)
        always_failed = all(d >= FAILS for d in distances)
        assert always_passed or always_failed, f"{check}: {name} is {', '.join(f'{d:.3g}' for d in distances)} " \
                                               "tolerances from the reference on fresh draws"
    if name in ACCEPTED:
        assert all(d <= PASSES for ds in verdicts.values() for d in ds), f"{name} is allowed, yet fails a check"
    elif name in PLAUSIBLE_MISTAKES:
        assert any(d >= FAILS for ds in verdicts.values() for d in ds), f"{name} passes every hidden check"
