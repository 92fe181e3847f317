"""The self-check on a student's machine: public checks, answers recorded in the handout, no reference.

What a student can fix without hidden information is caught here already (an unstable softmax on
the lesson's large scores, `.T` on batched keys, predictions still None), a dependency's mistake is
named as the cause (no stand-in can be made without the reference), and a follow-up question the
handout did not record is skipped, never an error.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from attnkit.config import load_course
from attnkit.errors import KitError
from attnkit.grading.plugin import Submission
from attnkit.grading.session import run_checks
from attnkit.handout import write_handout
from attnkit.self_check import torch_note
from kit import COURSE, InProcessSandbox, reference_submission

UNSTABLE = '''
import torch
def softmax(scores, dim=-1):
    e = torch.exp(scores)
    return e / e.sum(dim=dim, keepdim=True)
'''
PLAIN_T = '''
import math
def scaled_scores(Q, K):
    return Q @ K.T / math.sqrt(K.shape[-1])
'''
DK_SCALE = '''
def scaled_scores(Q, K):
    return Q @ K.transpose(-2, -1) / K.shape[-1]
'''
WRONG_DIM = '''
import torch
def softmax(scores, dim=-1):
    e = torch.exp(scores - scores.amax(dim=0, keepdim=True))
    return e / e.sum(dim=0, keepdim=True)
'''


@pytest.fixture(scope="module")
def handout_course(tmp_path_factory):
    return load_course(write_handout(COURSE, tmp_path_factory.mktemp("handout") / "handout") / "course.toml")


def check(course, tmp_path: Path, modules: dict[str, str]) -> dict:
    root = reference_submission(tmp_path / "student")
    for name, source in modules.items():
        path = root / "exercises" / f"{name}.py"
        if name == "cake":
            path.write_text(path.read_text().replace(source.split("|")[0], source.split("|")[1]))
        else:
            path.write_text(source)
    [result] = run_checks(course, [Submission("you", root)], public_only=True, open_sandbox=InProcessSandbox)
    return result.exercises


def test_the_reference_passes_every_public_check(handout_course, tmp_path):
    assert all(e.passed for e in check(handout_course, tmp_path, {}).values())


@pytest.mark.parametrize("modules,exercise,mistake", [
    ({"softmax": UNSTABLE}, "softmax", "softmax-unstable"),
    ({"scaled_scores": PLAIN_T}, "scaled_scores", "scores-batch-transpose"),
    ({"cake": "PREDICTED_WEIGHTS = [0.49, 0.01, 0.49]|PREDICTED_WEIGHTS = None"}, "cake", "cake-prediction-missing"),
])
def test_what_a_student_can_fix_is_caught_by_the_public_checks(handout_course, tmp_path, modules, exercise, mistake):
    assert mistake in check(handout_course, tmp_path, modules)[exercise].mistakes


def test_a_dependencys_mistake_is_named_as_the_cause_without_a_stand_in(handout_course, tmp_path):
    attention = check(handout_course, tmp_path, {"softmax": WRONG_DIM})["attention"]
    assert not attention.passed and attention.carried_from == []
    assert "attention fails because your softmax does (softmax-wrong-dim)" in attention.checks[0].message.lower()


def test_a_torch_other_than_the_recorded_one_is_noted_once(handout_course, tmp_path):
    from attnkit.distribution import installed_version
    from attnkit.self_check import RECORDED_WITH, check_folder

    recorded = json.loads((handout_course.graders_dir / RECORDED_WITH).read_text())
    assert recorded == {"torch": installed_version("torch")}
    assert torch_note(handout_course) == "" and torch_note(COURSE) == ""  # the course repo: the reference runs here
    folder = tmp_path / "handout"
    shutil.copytree(handout_course.root, folder)
    (folder / "checks" / RECORDED_WITH).write_text('{"torch": "2.2.0"}')
    run = check_folder(folder, ["softmax"])
    assert run.notes == (f"Note: your torch is {installed_version('torch')}; these checks were recorded with "
                         "torch 2.2.0. Answers are compared within a tolerance, so the verdicts hold.",)
    assert run.to_json()["notes"] == list(run.notes)


def test_an_unreadable_record_of_torch_is_one_line_naming_the_file(handout_course, tmp_path):
    from attnkit.self_check import RECORDED_WITH

    folder = tmp_path / "handout"
    shutil.copytree(handout_course.root, folder)
    (folder / "checks" / RECORDED_WITH).write_text("not json")
    with pytest.raises(KitError, match=f"{RECORDED_WITH}: cannot read the torch"):
        torch_note(load_course(folder / "course.toml"))


def test_the_module_named_is_the_one_where_the_mistake_is(handout_course, tmp_path):
    """The layer fails through attention, whose own code is right: the feedback sends the student to softmax.py."""
    projection = check(handout_course, tmp_path, {"softmax": WRONG_DIM})["projection"]
    message = projection.checks[0].message.lower()
    assert "your softmax does (softmax-wrong-dim): fix softmax.py first" in message and "attention.py" not in message


def test_every_failing_dependency_is_named(handout_course, tmp_path):
    projection = check(handout_course, tmp_path, {"softmax": WRONG_DIM, "scaled_scores": DK_SCALE})["projection"]
    message = projection.checks[0].message.lower()
    assert "fix softmax.py and scaled_scores.py first" in message, message
