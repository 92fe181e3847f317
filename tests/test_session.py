"""Grading one or many submissions in one pytest session (attnkit/grading/session.py): what it selects, with
which oracle and limits, and what it refuses before any student's code runs."""
from __future__ import annotations

import shutil

import pytest

from attnkit.config import load_course
from attnkit.errors import KitError
from attnkit.grading.oracle import RecordedOracle, ReferenceOracle
from attnkit.grading.plugin import Submission
from attnkit.grading.session import limits_from, make_oracle, run_checks, select_checks
from kit import COURSE, REPO, InProcessSandbox


def test_every_check_is_selected_by_default_in_the_courses_order():
    selected = select_checks(COURSE, None, public_only=False)
    assert list(selected) == COURSE.ids
    assert all(selected[e.id] == list(e.checks) for e in COURSE.exercises)


@pytest.mark.parametrize("public_only, hidden_only", [(True, False), (False, True)])
def test_public_and_hidden_checks_are_selected_apart(public_only, hidden_only):
    selected = select_checks(COURSE, None, public_only, hidden_only)
    assert selected and all(c.public == public_only for checks in selected.values() for c in checks)


def test_an_unknown_exercise_is_refused_naming_the_known_ones():
    with pytest.raises(KitError, match="no exercise 'softmaxx'.*softmax"):
        select_checks(COURSE, ["softmaxx"], public_only=False)


def test_the_limits_are_the_courses_settings():
    limits = limits_from(COURSE)
    assert (limits.call_timeout, limits.memory_mb, limits.output_kb, limits.time_budget) == (
        COURSE.settings.call_timeout, COURSE.settings.memory_limit_mb, COURSE.settings.output_limit_kb,
        COURSE.settings.time_budget)


def test_the_oracle_is_the_reference_where_the_course_has_it_else_the_recorded_answers(tmp_path):
    assert isinstance(make_oracle(COURSE), ReferenceOracle)
    shutil.copytree(REPO / "graders", tmp_path / "graders")
    shutil.copy(REPO / "course.toml", tmp_path / "course.toml")
    shutil.copytree(REPO / "exercises", tmp_path / "exercises")  # no solutions/: a handout's graders
    without_solutions = load_course(tmp_path / "course.toml")
    (tmp_path / "graders" / "expected.json").write_text("{}")
    assert isinstance(make_oracle(without_solutions), RecordedOracle)


def test_a_missing_grader_file_is_refused_before_any_student_runs(tmp_path):
    shutil.copytree(REPO / "graders", tmp_path / "graders")
    shutil.copytree(REPO / "solutions", tmp_path / "solutions")
    shutil.copytree(REPO / "exercises", tmp_path / "exercises")
    shutil.copy(REPO / "course.toml", tmp_path / "course.toml")
    course = load_course(tmp_path / "course.toml")
    (tmp_path / "graders" / "test_cake.py").unlink()
    opened = []
    with pytest.raises(KitError, match="test_cake.py: grader file missing"):
        run_checks(course, [Submission("s", tmp_path)], exercise_ids=["cake"],
                   open_sandbox=lambda root: opened.append(root) or InProcessSandbox(root))
    assert opened == []
