"""Student-style submissions written by people who had not read the graders, each with its verdict.

Every folder of tests/students/ is an overlay on the reference (its modules replace the reference's)
with an `expected.toml` saying what a fair grader owes it: for each exercise not given full marks
plainly, `passed`, the exact `mistakes` to name, and `carried_from` (error carried forward).
Exercises not listed must get full marks, no mistakes, nothing carried. One real `attnkit grade` run
grades them all; each test reads one student's feedback.
"""
from __future__ import annotations

import json
import subprocess
import tomllib
from pathlib import Path

import pytest

from kit import COURSE, QUICK_CALLS, course_copy, overlay_submission

pytestmark = pytest.mark.slow

STUDENTS = Path(__file__).resolve().parent / "students"
NAMES = sorted(p.name for p in STUDENTS.iterdir() if (p / "expected.toml").is_file())
KEYS = {"passed", "mistakes", "carried_from"}


def expected(name: str) -> dict[str, dict]:
    """Every exercise's verdict for this student, the unlisted ones full marks."""
    manifest = tomllib.loads((STUDENTS / name / "expected.toml").read_text())
    verdicts = {e: {"passed": True, "mistakes": [], "carried_from": []} for e in COURSE.ids}
    for exercise, verdict in manifest.items():
        if exercise != "about":
            assert exercise in verdicts and set(verdict) <= KEYS, f"{name}: malformed manifest entry {exercise}"
            verdicts[exercise].update(verdict)
    return verdicts


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> Path:
    """One `attnkit grade` of them all, on a copy of the course whose call_timeout is short (one loops)."""
    root = tmp_path_factory.mktemp("students")
    course = course_copy(root / "course", **QUICK_CALLS)
    for name in NAMES:
        overlay_submission(root / "submissions" / name, STUDENTS / name)
    out = root / "out"
    run = subprocess.run(["attnkit", "grade", str(root / "submissions"), "--out", str(out)],
                         cwd=course, capture_output=True, text=True, timeout=1800)
    assert run.returncode == 0, run.stderr
    return out


@pytest.mark.parametrize("exercise", COURSE.ids)
@pytest.mark.parametrize("name", NAMES)
def test_each_exercise_gets_the_verdict_a_fair_grader_owes(graded, name, exercise):
    want = expected(name)[exercise]
    got = json.loads((graded / "feedback" / f"{name}.json").read_text())["exercises"][exercise]
    full = got["score"] == got["max_score"]
    messages = [c["message"] for c in got["checks"] if c["message"]]
    assert (full, sorted(got["mistakes"]), sorted(got["carried_from"])) == \
        (want["passed"], sorted(want["mistakes"]), sorted(want["carried_from"])), messages
