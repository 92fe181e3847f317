"""Limits that belong to the whole submission, not to one process: one class graded through `attnkit grade`.

Each folder of limits/ is an overlay on the reference (like submissions/), graded beside an honest
student on a copy of the course with call_timeout 6 s (time enough for a hoarder to finish on a busy
machine, so that it is never stopped by the clock instead of the limit), memory_limit_mb 1200 and a
total time budget a submission of TIME_BUDGET seconds (`[settings] time_budget`), by one grading
process, so students are graded one after another in id order. Expected:
- `contained--*` hold twice memory_limit_mb outside any one process's address space (in memory
  files; in forked children), a step a call, answering wrong until they hold it all and right after:
  the submission's memory is limited as a whole, so the exercise scores 0 failing with `crash`,
  `exited` or `timeout`, never a right answer;
- `timeout-budget--*` answers right after sleeping just under call_timeout on every call: past the
  budget its remaining checks fail as `timeout`, and it costs the class at most the budget and one
  call_timeout (measured between its feedback file and the one written before it); the whole class
  stays within a bound derived from the budget;
- `keyring--a-writer` leaves a secret in every kernel keyring it reaches (readable by anyone) and
  `keyring--b-reader`, graded next, looks for it: no keyring data crosses between students, even
  when `attnkit grade` runs in a login session's keyring (leftovers.py gives it one);
- `leaves--*` leave processes behind (a renamed, signal-deaf double-forked daemon; a shell in a
  session of its own): nothing is left running once grading ends;
- `many-sparse-files`, a folder of 800 sparse module files of 1 MiB (800 MiB that cost the disk nothing),
  is refused as it is read, once past a submission's 8 MiB: it is that student's broken row;
- the honest student gets full marks, and the grader's own memory stays flat.
"""
from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from pathlib import Path

import pytest

from classroom import (
    HERE,
    NEEDS_SANDBOX,
    NO_DELAYED_ATTACK,
    TIGHT_SETTINGS,
    attacked_exercises,
    grade,
    hostile_submission,
    overlays,
)
from kit import course_copy, reference_submission

pytestmark = NEEDS_SANDBOX

LIMITS_DIR = HERE / "limits"
ATTACKS = overlays(LIMITS_DIR)
HOARDERS = [name for name in ATTACKS if name.startswith("contained--")]
SLEEPERS = [name for name in ATTACKS if name.startswith("timeout-budget--")]
READER = "keyring--b-reader"
HONEST = "reference"
SPARSE = "many-sparse-files"
SETTINGS = {**TIGHT_SETTINGS, "call_timeout": 6, "time_budget": 12}  # time_budget: seconds a submission
CALL_TIMEOUT, TIME_BUDGET = SETTINGS["call_timeout"], SETTINGS["time_budget"]
SLACK = 3.0  # seconds: the grader's own work around a submission, on a busy machine
CLASS_ALLOWANCE = 45.0  # seconds: start-up, the other students, the settle time, on a busy machine
CONTAINED = {"crash", "exited", "timeout"}
GRADER_MEMORY_MB = 768


@dataclass
class ClassRun:
    out: Path
    marker: str
    report: dict

    def feedback(self, student: str) -> dict:
        return json.loads((self.out / "feedback" / f"{student}.json").read_text(encoding="utf-8"))

    def cost(self, student: str) -> float:
        """Seconds between this student's feedback file and the one written just before it."""
        written = sorted(p.stat().st_mtime for p in (self.out / "feedback").glob("*.json"))
        mine = (self.out / "feedback" / f"{student}.json").stat().st_mtime
        return mine - max((t for t in written if t < mine), default=mine - self.report["seconds"])


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> ClassRun:
    root = tmp_path_factory.mktemp("limits")
    course = course_copy(root / "course", **SETTINGS)
    marker = f"adv-{secrets.token_hex(4)}"
    submissions = root / "submissions"
    reference_submission(submissions / HONEST)
    for name in ATTACKS:
        hostile_submission(submissions / name, LIMITS_DIR / name, marker)
    (submissions / SPARSE / "exercises").mkdir(parents=True)
    for index in range(800):
        with open(submissions / SPARSE / "exercises" / f"m{index:03d}.py", "wb") as stream:
            stream.truncate(1 << 20)
    report = grade(course, submissions, root / "out", "--jobs", "1", settle=NO_DELAYED_ATTACK)
    return ClassRun(root / "out", marker, report)


def test_the_grader_exits_normally(graded):
    assert graded.report["returncode"] == 0, graded.report["stderr"][-3000:]


def test_no_process_is_left_behind(graded):
    assert graded.report["leftovers"] == []


def test_the_honest_student_gets_full_marks(graded):
    record = graded.feedback(HONEST)
    assert record["score"] == record["max_score"], {e: r["mistakes"] for e, r in record["exercises"].items()}


@pytest.mark.parametrize("name", HOARDERS)
def test_memory_beyond_the_limit_is_refused_to_the_whole_submission(graded, name):
    record = graded.feedback(name)
    for exercise_id in attacked_exercises(LIMITS_DIR / name):
        result = record["exercises"][exercise_id]
        assert result["score"] == 0, result
        assert CONTAINED & set(result["mistakes"]), result


@pytest.mark.parametrize("name", SLEEPERS)
def test_past_the_time_budget_the_remaining_checks_time_out(graded, name):
    record = graded.feedback(name)
    assert record["score"] < record["max_score"]
    assert any("timeout" in result["mistakes"] for result in record["exercises"].values()), record


@pytest.mark.parametrize("name", SLEEPERS)
def test_a_slow_submission_costs_at_most_its_budget(graded, name):
    assert graded.cost(name) <= TIME_BUDGET + CALL_TIMEOUT + SLACK


def test_the_class_takes_a_bounded_time(graded):
    bound = CLASS_ALLOWANCE + len(SLEEPERS) * (TIME_BUDGET + CALL_TIMEOUT)
    assert graded.report["seconds"] <= bound, graded.report["seconds"]


def test_no_keyring_data_crosses_between_students(graded):
    secret = f"{graded.marker}-keyring-secret"
    assert secret not in json.dumps(graded.feedback(READER)), graded.feedback(READER)["exercises"]["softmax"]


def test_a_folder_too_big_to_hold_is_refused_as_it_is_read(graded):
    record = graded.feedback(SPARSE)
    assert record["score"] == 0 and "more than 8 MiB of module files" in record["problem"], record["problem"]


def test_the_graders_memory_stays_flat(graded):
    assert graded.report["grader_peak_mb"] < GRADER_MEMORY_MB, graded.report["grader_peak_mb"]
