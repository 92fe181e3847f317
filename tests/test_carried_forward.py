"""Error carried forward (docs/contract.md section 3): a mistake costs marks once, in the exercise that made it.

Each test grades a small submission written here (the reference with one or two modules replaced),
with the requests run in this process (`kit.InProcessSandbox`) so the policy is checked quickly;
the class grading tests run the same policy through the real sandbox.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from attnkit.grading.plugin import Submission, new_run_salt
from attnkit.grading.session import run_checks
from kit import COURSE, InProcessSandbox, reference_submission

WRONG_DIM_SOFTMAX = '''
import torch
def softmax(scores, dim=-1):
    e = torch.exp(scores - scores.amax(dim=0, keepdim=True))
    return e / e.sum(dim=0, keepdim=True)
'''
CRASHING_SOFTMAX = "def softmax(scores, dim=-1):\n    raise ValueError('not today')\n"
SQUARING_SOFTMAX = "def softmax(scores, dim=-1):\n    e = scores ** 2\n    return e / e.sum(dim=dim, keepdim=True)\n"
IN_PLACE_SCORES = '''
import math
def scaled_scores(Q, K):
    Q /= math.sqrt(K.shape[-1])
    return Q @ K.transpose(-2, -1)
'''
UNSCALED_ATTENTION = '''
import torch
from .softmax import softmax
def attention(Q, K, V):
    weights = softmax(Q @ K.transpose(-2, -1), dim=-1)
    return weights @ V, weights
'''

HALF_PRECISION_SCORES = '''
import math
import torch
def scaled_scores(Q, K):
    return (Q.half() @ K.half().transpose(-2, -1)).to(Q.dtype) / math.sqrt(K.shape[-1])
'''


def grade(tmp_path: Path, modules: dict[str, str | None], course=COURSE, run_salt: str | None = None) -> dict:
    root = reference_submission(tmp_path / "student")
    for name, source in modules.items():
        path = root / "exercises" / f"{name}.py"
        path.unlink() if source is None else path.write_text(source)
    [result] = run_checks(course, [Submission("student", root)], open_sandbox=InProcessSandbox, run_salt=run_salt)
    return result.exercises


def full(exercise) -> bool:
    return exercise.score == exercise.max_score


def test_a_correct_attention_over_a_wrong_softmax_keeps_its_points_and_names_softmaxs_mistake(tmp_path):
    graded = grade(tmp_path, {"softmax": WRONG_DIM_SOFTMAX})
    assert graded["softmax"].mistakes == ["softmax-wrong-dim"]
    assert full(graded["attention"]) and graded["attention"].carried_from == ["softmax"]
    assert graded["attention"].mistakes == []
    assert "softmax-wrong-dim" in graded["attention"].checks[0].message


def test_a_check_that_asks_twice_says_what_it_was_spared_once(tmp_path):
    graded = grade(tmp_path, {"softmax": WRONG_DIM_SOFTMAX})
    for check in graded["attention"].checks:
        assert check.message.count("is right on its own") <= 1, check.message


def test_a_layer_over_a_correct_attention_over_a_wrong_softmax_names_softmax(tmp_path):
    graded = grade(tmp_path, {"softmax": WRONG_DIM_SOFTMAX})
    assert full(graded["projection"]) and graded["projection"].carried_from == ["softmax"]


@pytest.mark.parametrize("source,mistake", [(CRASHING_SOFTMAX, "crash"), (None, "not-implemented"),
                                            (SQUARING_SOFTMAX, "wrong-values")])
def test_a_dependency_that_crashes_is_missing_or_has_an_unknown_bug_is_carried_too(tmp_path, source, mistake):
    graded = grade(tmp_path, {"softmax": source})
    assert mistake in graded["softmax"].mistakes
    assert full(graded["attention"]) and graded["attention"].carried_from == ["softmax"]


def test_a_dependency_that_changes_its_input_is_not_blamed_on_the_caller(tmp_path):
    graded = grade(tmp_path, {"scaled_scores": IN_PLACE_SCORES})
    assert "mutates-input" in graded["scaled_scores"].mistakes
    assert full(graded["attention"]) and graded["attention"].carried_from == ["scaled_scores"]


def test_an_exercise_with_its_own_mistake_over_a_wrong_dependency_pays_for_its_own_only(tmp_path):
    graded = grade(tmp_path, {"softmax": WRONG_DIM_SOFTMAX, "attention": UNSCALED_ATTENTION})
    assert graded["softmax"].mistakes == ["softmax-wrong-dim"]
    assert graded["attention"].mistakes == ["attention-missing-scale"] and graded["attention"].score == 0


def test_with_carry_forward_off_the_caller_loses_its_points_but_the_cause_is_named(tmp_path):
    course = dataclasses.replace(COURSE, grading=dataclasses.replace(COURSE.grading, carry_forward=False))
    graded = grade(tmp_path, {"softmax": WRONG_DIM_SOFTMAX}, course)
    attention = graded["attention"]
    assert attention.score == 0 and attention.carried_from == []
    assert attention.mistakes == ["softmax-wrong-dim"]
    assert "right on its own" in attention.checks[0].message and "softmax" in attention.checks[0].message


def test_a_dependency_spared_by_error_carried_forward_is_stood_in_for_in_the_exercises_that_call_it(tmp_path):
    """Half-precision scores are off by about the tolerance: attention over them is right as it stands on some
    draws and only with a stand-in on others, and the layer over that attention got gradients off by 4.5e-4 on
    some draws (issue 21). Attention's code and the layer's are right: full marks on every draw."""
    for draw in range(6):
        graded = grade(tmp_path / str(draw), {"scaled_scores": HALF_PRECISION_SCORES}, run_salt=new_run_salt())
        assert not full(graded["scaled_scores"])
        assert full(graded["attention"]) and full(graded["projection"]), [
            c.message for e in ("attention", "projection") for c in graded[e].checks if not c.passed]


@pytest.mark.slow
@pytest.mark.parametrize("broken", ["attention", "softmax"])
def test_a_module_that_does_not_compile_costs_its_own_exercise_only(tmp_path, broken):
    """A syntax error in a dependency is carried forward as a runtime error there is: the exercises
    importing it are graded with stand-ins (in the real sandbox, every check of the layer included)."""
    root = reference_submission(tmp_path / "student")
    (root / "exercises" / f"{broken}.py").write_text("def oops(:\n    pass\n")
    result = run_checks(COURSE, [Submission("student", root)])[0]
    for exercise_id, exercise in result.exercises.items():
        if exercise_id == broken:
            assert exercise.score == 0 and exercise.mistakes == ["crash"]
        else:
            assert exercise.score == exercise.max_score, (exercise_id, [c.message for c in exercise.checks])
            spared = broken in [exercise_id, *COURSE.dependencies(exercise_id)]
            assert (exercise.carried_from == [broken]) == (spared and exercise_id != broken), exercise_id
