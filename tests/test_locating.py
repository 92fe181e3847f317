"""Locating a wrong answer: the first wrong step of the lesson's computation and the student's line.

Fast tests of the pure comparison (attnkit/grading/locating.py) on bindings written out here, of the
tracer in this process on the kit's own code, of the protocol's checks on a trace; then the real
sandbox on student-style submissions (tests/locating/<case>/: modules overlaid on the reference and
an expected.toml naming the file, line, step and last right step), hostile submissions that may only
lose their location, and a sample of single-line mutants (tests/mutants.py).
"""
from __future__ import annotations

import json
import math
import shutil
import tomllib
from pathlib import Path

import numpy as np
import pytest

import mutants
from attnkit.config import load_course
from attnkit.grading.feedback import location_feedback
from attnkit.grading.locating import Located, Source, locate, locate_traced
from attnkit.grading.results import CheckResult, Location, ResultError
from attnkit.grading.session import make_oracle
from attnkit.sandbox import protocol
from attnkit.sandbox.protocol import Answer, Binding, Failure, Trace, TraceRequest
from attnkit.sandbox.tracing import MAX_LINES, traced
from kit import COURSE, REPO, reference_submission

CASES = sorted(p for p in (REPO / "tests" / "locating").iterdir() if p.is_dir())
SOFTMAX = '''import torch


def softmax(scores, dim=-1):
    shifted = scores - scores.amax(dim=dim, keepdim=True)
    exps = torch.exp(shifted)
    total = exps.sum(dim=0, keepdim=True)
    return exps / total
'''
X = np.array([[1.0, 2.0, 0.5], [0.0, 1.0, 3.0], [2.0, 2.0, 1.0]])


def reference_steps(x: np.ndarray) -> list[tuple[str, np.ndarray]]:
    shifted = x - x.max(axis=-1, keepdims=True)
    exps = np.exp(shifted)
    total = exps.sum(axis=-1, keepdims=True)
    return [("shift", shifted), ("powers", exps), ("totals", total), ("quotient", exps / total)]


def binding(line: int, name: str, value: np.ndarray, file: str = "softmax.py", alias: str = "") -> Binding:
    value = np.asarray(value, dtype=np.float64)
    return Binding(file, line, name, value.shape, value.reshape(value.shape or (1,)), alias)


def sources() -> dict[str, Source]:
    source = Source.parse("softmax.py", SOFTMAX)
    assert source is not None
    return {"softmax.py": source}


def wrong_total_bindings() -> list[Binding]:
    shifted = X - X.max(axis=-1, keepdims=True)
    exps = np.exp(shifted)
    total = exps.sum(axis=0, keepdims=True)
    return [binding(4, "scores", X), binding(5, "shifted", shifted), binding(6, "exps", exps),
            binding(7, "total", total), binding(8, "return", exps / total)]


# --- the comparison, on bindings written out ------------------------------------------------------------


def test_the_first_wrong_binding_after_the_last_right_step_is_named():
    found = locate(Trace(Answer(), tuple(wrong_total_bindings())), reference_steps(X), [X], sources(), 1e-6, 1e-9)
    assert found is not None
    assert found.location == Location("softmax.py", 7, "total = exps.sum(dim=0, keepdim=True)", "totals", "powers")


@pytest.mark.parametrize("form", ["transposed", "rows of a loop", "a batch folded"])
def test_a_step_held_in_another_form_is_still_right(form):
    bindings = wrong_total_bindings()
    exps = bindings[2].value
    assert exps is not None
    other = {"transposed": [binding(6, "exps", exps.T)],
             "rows of a loop": [binding(6, "exps", row) for row in exps],
             "a batch folded": [binding(6, "exps", exps.reshape(1, 3, 3))]}[form]
    trace = Trace(Answer(), (*bindings[:2], *other, *bindings[3:]))
    found = locate(trace, reference_steps(X), [X], sources(), 1e-6, 1e-9)
    assert found is not None and (found.location.line, found.location.last_right) == (7, "powers")


def test_a_total_without_keepdim_is_not_the_totals_step():
    """Its numbers are the totals, but dropped behind they broadcast along the wrong axis."""
    bindings = wrong_total_bindings()
    exps = bindings[2].value
    assert exps is not None
    total = exps.sum(axis=-1)
    trace = Trace(Answer(), (*bindings[:3], binding(7, "total", total), binding(8, "return", exps / total)))
    found = locate(trace, reference_steps(X), [X], sources(), 1e-6, 1e-9)
    assert found is not None and (found.location.line, found.location.step) == (7, "totals")


def test_an_alias_holding_a_step_already_reached_is_a_step_left_out():
    bindings = wrong_total_bindings()
    shifted = bindings[1].value
    assert shifted is not None
    total = shifted.sum(axis=-1, keepdims=True)
    trace = Trace(Answer(), (*bindings[:2], binding(6, "exps", shifted, alias="shifted"),
                             binding(7, "total", total), binding(8, "return", shifted / total)))
    found = locate(trace, reference_steps(X), [X], sources(), 1e-6, 1e-9)
    assert found is not None and (found.location.line, found.location.step) == (6, "powers")


INLINE_SHIFT = '''import torch


def softmax(scores, dim=-1):
    e = (scores - scores.amax(dim=dim, keepdim=True))
    total = e.sum(dim=dim, keepdim=True)
    return e / total
'''


def test_a_line_that_stops_a_step_short_is_named_not_the_next_one():
    """`e = (x - peak)`, the exponential left out: its numbers are the right shift, so the next line is the
    first whose numbers are wrong; that line's shape says totals, so the powers were never bound."""
    shifted = X - X.max(axis=-1, keepdims=True)
    total = shifted.sum(axis=-1, keepdims=True)
    trace = Trace(Answer(), (binding(4, "scores", X), binding(5, "e", shifted), binding(6, "total", total),
                             binding(7, "return", shifted / total)))
    source = Source.parse("softmax.py", INLINE_SHIFT)
    assert source is not None
    found = locate(trace, reference_steps(X), [X], {"softmax.py": source}, 1e-6, 1e-9)
    assert found is not None and found.location.line == 5
    assert (found.location.step, found.location.last_right) == ("powers", "shift")


def test_a_step_left_out_that_either_of_two_lines_may_hold_names_the_line_that_stopped_and_the_other():
    """`exps = x - m` then `return exps / exps.sum()`: the exponential belongs on either line. The line named is
    the one after which the lesson's steps stop (it holds the shift, where the powers should follow); the words
    name the other line it may belong on."""
    source = Source.parse("softmax.py", "import torch\n\n\ndef softmax(x, dim=-1):\n    exps = x - x.amax(dim, True)\n"
                                        "    return exps / exps.sum(dim, keepdim=True)\n")
    assert source is not None
    shifted = X - X.max(axis=-1, keepdims=True)
    trace = Trace(Answer(), (binding(4, "x", X), binding(5, "exps", shifted),
                             binding(6, "return", shifted / shifted.sum(axis=-1, keepdims=True))))
    found = locate(trace, reference_steps(X), [X], {"softmax.py": source}, 1e-6, 1e-9)
    assert found is not None and (found.location.file, found.location.line) == ("softmax.py", 5)
    assert (found.location.step, found.location.last_right) == ("powers", "shift")
    assert found.either == (("softmax.py", 5), ("softmax.py", 6))
    _, words = location_feedback(found, "line", public=False)
    assert "Line 5 stops at the shift step and softmax.py, line 6 goes on without the powers step" in words


def test_a_loop_counter_is_never_the_wrong_number():
    """A line reading `b` (a loop's index) and `d_k`: the index is no size or scale gone wrong."""
    text = ("import math\nimport torch\n\n\ndef scaled_scores(Q, K):\n    d_k = K.shape[-1]\n"
            "    out = torch.zeros(Q.shape[0], K.shape[0])\n    for b in range(Q.shape[0]):\n"
            "        out[b] = (K @ Q[b]) * math.sqrt(d_k)\n    return out\n")
    source = Source.parse("scaled_scores.py", text)
    assert source is not None
    Q, K = X[:2], X
    dots = Q @ K.T
    rows = [dots[0] * math.sqrt(3), dots[1] * math.sqrt(3)]
    trace = Trace(Answer(), tuple(binding(line, name, value, "scaled_scores.py") for line, name, value in [
        (6, "d_k", np.array(3.0)), (8, "b", np.array(0.0)), (9, "out", np.vstack([rows[0], np.zeros(3)])),
        (8, "b", np.array(1.0)), (9, "out", np.vstack(rows)), (10, "return", np.vstack(rows))]))
    steps = [("dot products", dots), ("d_k", np.array(3.0)), ("√d_k", np.array(math.sqrt(3))),
             ("scale", dots / math.sqrt(3))]
    found = locate(trace, steps, [Q, K], {"scaled_scores.py": source}, 1e-6, 1e-9)
    assert found is not None and (found.location.line, found.location.step) == (9, "scale")


def test_an_answer_that_stops_a_step_short_names_its_return():
    bindings = wrong_total_bindings()
    trace = Trace(Answer(), (*bindings[:3], binding(8, "return", bindings[2].value)))
    found = locate(trace, reference_steps(X), [X], sources(), 1e-6, 1e-9)
    assert found is not None and (found.location.line, found.location.last_right) == (8, "powers")


def test_elementwise_products_that_sum_to_a_step_are_a_right_intermediate():
    source = Source.parse("scaled_scores.py", "def scaled_scores(Q, K):\n    products = Q[:, None, :] * K[None]\n"
                          "    dots = products.sum(-1)\n    return dots * 2.0\n")
    assert source is not None
    Q, K = np.arange(6.0).reshape(3, 2), np.arange(8.0).reshape(4, 2) / 3
    products = Q[:, None, :] * K[None]
    trace = Trace(Answer(), (binding(2, "products", products, "scaled_scores.py"),
                             binding(3, "dots", products.sum(-1), "scaled_scores.py"),
                             binding(4, "return", products.sum(-1) * 2.0, "scaled_scores.py")))
    steps = [("dot products", Q @ K.T), ("scale", Q @ K.T / np.sqrt(2))]
    found = locate(trace, steps, [Q, K], {"scaled_scores.py": source}, 1e-6, 1e-9)
    assert found is not None and (found.location.line, found.location.last_right) == (4, "dot products")


@pytest.mark.parametrize("lie", ["a file the grader did not read", "a line past the end", "a blank line"])
def test_a_trace_that_names_what_is_not_there_locates_nothing(lie):
    file, line = {"a file the grader did not read": ("other.py", 7), "a line past the end": ("softmax.py", 99),
                  "a blank line": ("softmax.py", 2)}[lie]
    bindings = [*wrong_total_bindings(), binding(line, "x", np.ones((3, 3)), file=file)]
    assert locate(Trace(Answer(), tuple(bindings)), reference_steps(X), [X], sources(), 1e-6, 1e-9) is None


def test_a_crash_is_named_with_the_shapes_its_line_read():
    source = Source.parse("attention.py", "def attention(Q, K, V):\n    scores = Q @ K.T\n    return scores @ V\n")
    assert source is not None
    Q, K = np.ones((2, 3, 4)), np.ones((2, 5, 4))
    trace = Trace(Failure("crash", "RuntimeError", "shapes", "attention.py, line 2"),
                  (binding(1, "Q", Q, "attention.py"), binding(1, "K", K, "attention.py")))
    found = locate(trace, [("dot products", np.ones((2, 3, 5)))], [Q, K], {"attention.py": source}, 1e-6, 1e-9)
    assert found is not None
    assert (found.location.line, found.location.step) == (2, "dot products")
    assert "Q has shape (2, 3, 4), K has shape (2, 5, 4)" in found.shapes
    assert found.assumed == "`.T` on a tensor of more than two dimensions reverses all its dimensions, not the last " \
                            "two; this check passes a batch of shape (2, 5, 4). `.transpose(-2, -1)` (or `.mT`) " \
                            "swaps the last two."


def test_no_declared_steps_locate_nothing():
    assert locate(Trace(Answer(), tuple(wrong_total_bindings())), [], [X], sources(), 1e-6, 1e-9) is None


# --- the words, and the course's setting ---------------------------------------------------------------


LOCATED = Located(Location("softmax.py", 7, "total = exps.sum(dim=0)", "totals", "powers"),
                  yours=np.array([0.2, 0.3, 0.5]), expected=np.array([0.4, 0.2, 0.4]))


@pytest.mark.parametrize("mode", ["line", "step", "off"])
def test_the_course_decides_how_much_of_the_location_is_shown(mode):
    location, words = location_feedback(LOCATED, mode, public=False)
    if mode == "off":
        assert (location, words) == (None, "")
        return
    assert location is not None and location.step == "totals"
    described = location.describe()
    assert "he totals step; the powers step before it was still right" in described
    assert (location.line is None) == (mode == "step") and ("line 7: `total = exps.sum(dim=0)`" in described) == \
        (mode == "line")


def test_the_lesson_numbers_are_shown_on_public_checks_only():
    assert "Your totals on this check's numbers: 0.20, 0.30, 0.50; they should be 0.40, 0.20, 0.40." == \
        location_feedback(LOCATED, "line", public=True)[1]
    assert "0.40" not in location_feedback(LOCATED, "line", public=False)[1]


def test_a_location_survives_the_feedback_record_and_a_forged_one_is_refused():
    result = CheckResult("c", "test_c", True, False, 0.0, 1.0, ["wrong-values"], location=LOCATED.location)
    record = json.loads(json.dumps(result.to_json()))
    assert record["location"] == {"file": "softmax.py", "line": 7, "code": "total = exps.sum(dim=0)",
                                  "step": "totals", "last_right": "powers"}
    assert CheckResult.from_json(record, "c").location == LOCATED.location
    record["location"]["line"] = "7"
    with pytest.raises(ResultError, match="location.line"):
        CheckResult.from_json(record, "c")


def course_with(folder: Path, locate: str) -> Path:
    """This course's registry in `folder` (its paths pointing back here), with `[feedback] locate` set."""
    text = (REPO / "course.toml").read_text(encoding="utf-8")
    for key in ("exercises", "solutions", "graders", "mistakes"):
        folder_name = {"exercises": "exercises", "solutions": "solutions", "graders": "graders",
                       "mistakes": "graders/mistakes"}[key]
        text = text.replace(f'{key} = "{folder_name}"', f'{key} = "{REPO / folder_name}"', 1)
    folder.mkdir(parents=True, exist_ok=True)
    assert text.count('\nlocate = "line"') == 1
    (folder / "course.toml").write_text(text.replace('\nlocate = "line"', f'\nlocate = "{locate}"'), encoding="utf-8")
    return folder / "course.toml"


@pytest.mark.parametrize("value", ["line", "step", "off", "everything"])
def test_feedback_locate_is_a_course_setting(tmp_path, value):
    registry = course_with(tmp_path, value)
    if value == "everything":
        with pytest.raises(Exception, match="feedback.locate"):
            load_course(registry)
    else:
        assert load_course(registry).feedback.locate == value
    assert COURSE.feedback.locate == "line"  # the default shows the line


# --- the protocol and the tracer ------------------------------------------------------------------------


def test_a_trace_round_trips_and_a_malformed_binding_is_refused():
    trace = Trace(Answer(), (binding(3, "x", np.ones((2, 2))), binding(4, "n", np.array(5.0))), False)
    back = protocol.decode(protocol.encode(trace)[protocol.HEADER.size:], protocol.FROM_SANDBOX)
    assert [(b.line, b.name, b.shape) for b in back.bindings] == [(3, "x", (2, 2)), (4, "n", ())]
    assert back.complete is False and float(back.bindings[1].value[0]) == 5.0
    bad = Trace(Answer(), (Binding("a.py", 0, "x", (2,), np.ones(2)),))
    with pytest.raises(protocol.ProtocolError, match="Binding"):
        protocol.decode(protocol.encode(bad)[protocol.HEADER.size:], protocol.FROM_SANDBOX)
    lying = Trace(Answer(), (Binding("a.py", 3, "x", (2, 2), np.ones(3)),))
    with pytest.raises(protocol.ProtocolError, match="Binding"):
        protocol.decode(protocol.encode(lying)[protocol.HEADER.size:], protocol.FROM_SANDBOX)


def test_the_tracer_records_only_the_students_files_and_stops_at_its_caps(tmp_path):
    import importlib
    import sys

    package = tmp_path / "tracedpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "softmax.py").write_text(SOFTMAX + "\n\ndef flood(x):\n    for i in range(500):\n"
                                        "        x = x + 1.0\n    return x\n")
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module("tracedpkg.softmax")
        import torch

        with traced(package, 200, 4096) as tracer:
            module.softmax(torch.tensor(X))
        assert [(b.line, b.name) for b in tracer.bindings] == [(4, "scores"), (4, "dim"), (5, "shifted"),
                                                               (6, "exps"), (7, "total"), (8, "return")]
        assert tracer.complete
        with traced(package, 10, 4) as capped:
            module.flood(torch.zeros(3, 3))
        assert len(capped.bindings) <= 10 and all(b.value is None for b in capped.bindings if b.name == "x")
        assert len({(b.line, b.name) for b in capped.bindings}) == len({(b.line, b.name) for b in capped.bindings})
    finally:
        sys.path.remove(str(tmp_path))


# --- the real sandbox: student-style submissions ----------------------------------------------------------


@pytest.fixture(scope="module")
def oracle():
    made = make_oracle(COURSE)
    yield made
    made.close()


def traced_location(root: Path, module: str, oracle) -> Located | None:
    """The probe questions of the module's exercise (tests/mutants.py), the first wrong one located."""
    import mutants
    from attnkit.sandbox.runner import SandboxedSubmission

    with SandboxedSubmission(root) as sandbox:
        for request in mutants.probes(module, np.random.default_rng(7)):
            reply = sandbox.run(request)
            if isinstance(reply, Answer) and mutants._right(reply, oracle.reference(request)):
                continue
            trace = sandbox.trace(TraceRequest(request))
            assert trace is not None, "an honest submission's trace came back"
            return locate_traced(trace, oracle.steps(request), request, root, 1e-3, 1e-5,
                                 more=mutants.witnesses(sandbox, request, oracle))
    return None


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_a_student_style_is_located_at_its_line(case, tmp_path, oracle):
    expected = tomllib.loads((case / "expected.toml").read_text(encoding="utf-8"))
    root = reference_submission(tmp_path / "submission")
    for module in case.glob("*.py"):
        shutil.copy(module, root / "exercises" / module.name)
    found = traced_location(root, expected["module"], oracle)
    assert found is not None
    where = found.location
    if "either" in expected:  # no line claimed: the two the numbers cannot choose between
        assert [list(pair) for pair in found.either] == expected["either"] and where.line is None
    else:
        assert where.code == (case / expected["file"]).read_text().splitlines()[expected["line"] - 1].strip()
    assert (where.file, where.line, where.step, where.last_right) == \
        (expected.get("file"), expected.get("line"), expected["step"], expected.get("last_right"))
    assert expected.get("assumed", "") in found.assumed  # a crash: what the call that raised assumed


HOSTILE = {
    "turns the tracer off": "import sys\n\ndef softmax(scores, dim=-1):\n    sys.settrace(None)\n"
                            "    return scores * 2\n",
    # twice the line events the tracer follows, each rebinding one name; plain numbers, so that the calls
    # no tracer watches (most of the grading) take milliseconds, not seconds
    "floods it": f"def softmax(scores, dim=-1):\n    total = 0\n    for i in range({MAX_LINES}):\n"
                 "        total += i\n    return scores * 2\n",
    "binds a huge object": "import torch\n\ndef softmax(scores, dim=-1):\n    big = torch.zeros(3000, 3000)\n"
                           "    return scores * 2\n",
    "forges a trace": "import os, sys\n\ndef softmax(scores, dim=-1):\n    if sys.gettrace():\n"
                      "        os.write(1, b'garbage')\n        os._exit(3)\n    return scores * 2\n",
}


@pytest.mark.slow
@pytest.mark.parametrize("how", HOSTILE)
def test_a_hostile_submission_loses_its_location_and_nothing_else(how, tmp_path):
    """Graded twice, with locating on and off: the same scores and mistakes, whatever its tracer does."""
    from attnkit.grading.plugin import Submission
    from attnkit.grading.session import run_checks

    root = reference_submission(tmp_path / "hostile")
    (root / "exercises" / "softmax.py").write_text(HOSTILE[how])
    off = load_course(course_with(tmp_path / "off", "off"))
    results = [run_checks(course, [Submission("h", root)], exercise_ids=["softmax", "attention"])[0]
               for course in (COURSE, off)]
    on_json, off_json = (r.to_json() for r in results)
    for exercise in ("softmax", "attention"):
        on, plain = on_json["exercises"][exercise], off_json["exercises"][exercise]
        assert (on["score"], on["mistakes"]) == (plain["score"], plain["mistakes"])
    assert results[0].problem == ""


@pytest.mark.slow
def test_single_line_mutants_are_located_at_their_line(tmp_path, oracle):
    """A sample of tests/mutants.py's mutants (benchmarks/locate_mutants.py prints the figures for all)."""
    import mutants

    outcomes = [mutants.judge(m, tmp_path, oracle) for m in mutants.sample(24, seed=3)]
    wrong = [o for o in outcomes if o.verdict != "equivalent"]
    at_line = [o for o in wrong if o.verdict == "at-line"]
    assert len(at_line) >= 0.7 * len(wrong), [o.mutant.label for o in wrong if o.verdict != "at-line"]


# --- a second input, and what a library call assumes ----------------------------------------------------


def test_a_second_input_has_other_numbers_and_sizes_but_keeps_what_the_request_ties():
    from attnkit.grading.steps.located import second_inputs
    from attnkit.sandbox.protocol import CallRequest, ModuleRequest

    call = CallRequest("attention", "attention", (np.ones((2, 3, 4)), np.ones((2, 5, 4)), np.ones((2, 5, 6))),
                       "float64")
    (other,) = second_inputs(call)
    assert [a.shape for a in other.args] == [(3, 4, 5), (3, 6, 5), (3, 6, 7)]  # equal sizes stay equal
    assert other.dtype == "float64" and not np.allclose(other.args[0], 1.0)
    assert all(np.array_equal(a, b) for a, b in zip(other.args, second_inputs(call)[0].args))  # seeded
    layer = ModuleRequest("projection", "SelfAttention", (8, 3), ("W_q",), {"W_q.weight": np.ones((3, 8))},
                          np.ones((5, 8)))
    (built,) = second_inputs(layer)
    assert built.init == (8, 3) and built.weights["W_q.weight"].shape == (3, 8) and built.input.shape == (6, 8)
    assert second_inputs(replace_input(layer)) == []


def replace_input(request):
    import dataclasses

    return dataclasses.replace(request, input=None)


def test_a_step_matched_by_coincidence_on_one_input_is_not_right_where_a_witness_sees_it_wrong():
    """Rows that tie: `peak` (maxima without keepdim) equals a row of this input, so it looks given and the
    next line is blamed; on a second input its site holds no input, so it is the line named."""
    from attnkit.grading.matching import Witness

    x = np.array([[3.0, 1.0, 2.0], [0.0, 2.0, 1.0], [3.0, 2.0, 3.0]])  # row maxima 3, 2, 3: the last row
    source = Source.parse("softmax.py", "import torch\n\n\ndef softmax(x, dim=-1):\n    peak = x.amax(dim)\n"
                                        "    e = torch.exp(x - peak)\n    return e / e.sum(dim, keepdim=True)\n")
    assert source is not None

    def run(x: np.ndarray) -> Trace:
        peak = x.max(axis=-1)
        e = np.exp(x - peak)
        return Trace(Answer(), (binding(5, "peak", peak), binding(6, "e", e),
                                binding(7, "return", e / e.sum(-1, keepdims=True))))

    alone = locate(run(x), reference_steps(x), [x], {"softmax.py": source}, 1e-6, 1e-9)
    other = np.random.default_rng(0).normal(size=(4, 4))
    witnessed = locate(run(x), reference_steps(x), [x], {"softmax.py": source}, 1e-6, 1e-9,
                       [Witness(run(other), reference_steps(other), [other])])
    assert alone is not None and alone.location.line == 6
    assert witnessed is not None and witnessed.location.line == 5


def crash_of(call) -> Failure:
    try:
        call()
    except Exception as error:  # the real library's own error, as the sandbox reports it
        return Failure("crash", type(error).__name__, str(error), "attention.py, line 2")
    raise AssertionError("the call did not raise")


@pytest.mark.parametrize("code, call, shapes, words", [
    ("out = torch.bmm(w, V)", lambda t: t.bmm(t.ones(2, 2, 3, 4), t.ones(2, 2, 4, 5)), [("w", (2, 2, 3, 4))],
     "`torch.bmm` takes 3-D tensors (one batch dimension in front); this check passes a batch of shape (2, 2, 3, 4)"),
    ("s = torch.mm(Q, K.T)", lambda t: t.mm(t.ones(2, 3, 4), t.ones(4, 3)), [("Q", (2, 3, 4)), ("K", (2, 3, 4))],
     "`torch.mm` takes 2-D matrices only; this check passes a batch of shape (2, 3, 4)"),
    ("flat = scores.transpose(-2, -1).view(-1)", lambda t: t.ones(3, 4).transpose(-2, -1).view(-1),
     [("scores", (3, 4))], "`.view` needs a tensor laid out in one piece"),
    ("w = scores.softmax(dim=2)", lambda t: t.ones(3, 3).softmax(dim=2), [("scores", (3, 3))],
     "A dimension counted from the front means another dimension once a batch is in front"),
    ("s = Q @ K", lambda t: t.ones(3, 2) @ t.ones(3, 2), [("Q", (3, 2)), ("K", (3, 2))],
     "`@` needs the last dimension of the left to equal the second-to-last of the right"),
])
def test_a_crash_is_explained_by_what_the_call_assumed(code, call, shapes, words):
    import torch

    from attnkit.grading.assumptions import explain

    said = explain(code, crash_of(lambda: call(torch)), shapes, [(2, 2, 3, 4), (2, 3, 4)])
    assert words in said and said.endswith(".")


def test_a_crash_no_fact_here_explains_gets_no_words():
    from attnkit.grading.assumptions import explain

    assert explain("x = helper(scores)", Failure("crash", "ValueError", "bad", "a.py, line 1"), [("scores", (3,))],
                   []) == ""
    assert explain("s = torch.bmm(w, V)", Failure("crash", "RuntimeError", "out of memory", "a.py, line 1"),
                   [("w", (2, 3))], []) == ""  # bmm on that line, but the error is not about its dimensions


def test_the_tracer_reads_a_list_of_tensors_a_loop_appends_to(tmp_path):
    import importlib
    import sys

    import torch

    package = tmp_path / "appendpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "rows.py").write_text("import torch\n\n\ndef rows(x):\n    out = []\n    for r in x:\n"
                                     "        out.append(r * 2)\n    return torch.stack(out)\n")
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module("appendpkg.rows")
        with traced(package, 200, 4096) as tracer:
            module.rows(torch.ones(3, 2))
        grown = [b for b in tracer.bindings if b.name == "out" and b.line == 7]
        assert [b.shape for b in grown] == [(1, 2), (2, 2), (3, 2)]
        assert grown[-1].value is not None and np.allclose(grown[-1].value, 2.0)
    finally:
        sys.path.remove(str(tmp_path))


@pytest.mark.slow
@pytest.mark.parametrize("style", mutants.styles("new"), ids=lambda s: f"{s.name}:{s.module}")
def test_every_style_written_for_the_mutant_harness_is_correct(style, tmp_path, oracle):
    """tests/styles holds correct styles only: a wrong one would make every mutant of it count as wrong."""
    from attnkit.sandbox.runner import SandboxedSubmission

    with SandboxedSubmission(mutants._package(tmp_path / "style", style.files)) as sandbox:
        for request in mutants.probes(style.module, np.random.default_rng(7)):
            reply = sandbox.run(request)
            assert isinstance(reply, Answer) and mutants._right(reply, oracle.reference(request)), request


# --- one traced run for checks that name the same mistakes ---------------------------------------------


@pytest.mark.slow
def test_checks_of_an_exercise_that_name_the_same_catalogued_mistake_share_its_lines(tmp_path):
    """The same code's same catalogued mistake is on the same lines whichever check shows it: it is traced
    once for the exercise's public checks and once for its hidden ones, and every failed check is told the
    lines (the numbers at the wrong step only where they are that check's own)."""
    from attnkit.grading.plugin import Submission
    from attnkit.grading.session import run_checks
    from attnkit.sandbox.runner import Limits, SandboxedSubmission
    from kit import CATALOGUE, variant_submission

    [variant] = CATALOGUE["softmax-wrong-dim"].variants[:1]
    root = variant_submission(tmp_path / "ann", variant)
    traced: list[bool] = []

    class Counting(SandboxedSubmission):
        def trace(self, request, on_standin=None, *, hidden=False):
            traced.append(hidden)
            return super().trace(request, on_standin, hidden=hidden)

    result = run_checks(COURSE, [Submission("ann", root)], exercise_ids=["softmax"],
                        open_sandbox=lambda path: Counting(path, Limits()))[0]
    failed = [c for c in result.exercises["softmax"].checks if not c.passed]
    assert all(c.mistakes == ["softmax-wrong-dim"] for c in failed)
    assert len(failed) >= 3 and all(c.location is not None and c.location.line for c in failed)
    assert len({c.location.line for c in failed}) == 1
    per_locating = 2  # the question, and the same code on a second input (docs/diagnosis.md)
    assert traced.count(False) <= per_locating and traced.count(True) <= per_locating
