"""Grading again: unchanged submissions are skipped, and an interrupted run leaves a consistent gradebook."""
from __future__ import annotations

import csv
import json
import signal
import subprocess
import time
from pathlib import Path

import pytest

from kit import CATALOGUE, REPO, reference_submission, variant_submission

pytestmark = pytest.mark.slow
STUDENTS = 60  # enough that a run cannot finish between the first row and the signal, even on a busy machine


def grade(submissions: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(["attnkit", "grade", str(submissions), "--out", str(out), *extra],
                          cwd=REPO, capture_output=True, text=True, timeout=600)


def gradebook(out: Path, complete: bool = True) -> dict[str, dict]:
    """Rows of grades.csv by student, checked against the feedback files: one for each (`complete`), or,
    after a kill -9, one for each but the last second's (grades.csv is written at most once a second)."""
    with open(out / "grades.csv", newline="") as stream:
        rows = {row["student"]: row for row in csv.DictReader(stream)}
    for student, row in rows.items():
        record = json.loads((out / "feedback" / f"{student}.json").read_text())
        assert float(row["total"]) == record["score"]
        assert (out / "feedback" / f"{student}.md").is_file()
    recorded = {p.stem for p in (out / "feedback").glob("*.json")}
    assert set(rows) == recorded if complete else set(rows) <= recorded
    return rows


def test_unchanged_submissions_are_skipped_and_force_regrades(tmp_path):
    class_dir = tmp_path / "class"
    reference_submission(class_dir / "ann")
    variant_submission(class_dir / "ben", CATALOGUE["softmax-wrong-dim"].variants[0])
    (class_dir / "cat.zip").write_text("not a zip")
    out = tmp_path / "out"
    first = grade(class_dir, out)
    assert first.returncode == 0, first.stderr
    assert "3 students, 2 graded and 1 broken (zeros); this run: 3 done, 0 unchanged" in first.stdout
    before = gradebook(out)

    second = grade(class_dir, out)
    assert "this run: 0 done, 3 unchanged and kept" in second.stdout
    assert gradebook(out) == before

    softmax = class_dir / "ben" / "exercises" / "softmax.py"
    softmax.write_text((REPO / "solutions" / "softmax.py").read_text())
    third = grade(class_dir, out)
    assert "this run: 1 done, 2 unchanged and kept" in third.stdout
    assert gradebook(out)["ben"]["total"] == before["ann"]["total"]

    forced = grade(class_dir, out, "--force")
    assert "3 students, 2 graded and 1 broken (zeros); this run: 3 done" in forced.stdout


@pytest.mark.parametrize("signal_number", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "kill"])
def test_an_interrupted_run_leaves_the_students_done_and_the_next_run_finishes(tmp_path, signal_number):
    class_dir = tmp_path / "class"
    for index in range(STUDENTS):
        reference_submission(class_dir / f"s{index:02d}")
    out = tmp_path / "out"
    process = subprocess.Popen(["attnkit", "grade", str(class_dir), "--out", str(out), "--jobs", "1"],
                               cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 300
    while not (out / "grades.csv").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal_number)
    _, stderr = process.communicate(timeout=60)
    done = gradebook(out, complete=signal_number == signal.SIGINT)  # Ctrl-C writes grades.csv before it exits
    assert 1 <= len(done) < STUDENTS
    if signal_number == signal.SIGINT:
        assert process.returncode == 130 and b"run the same command again" in stderr

    recorded = len(list((out / "feedback").glob("*.json")))
    rest = grade(class_dir, out)
    assert rest.returncode == 0, rest.stderr
    assert f"{recorded} unchanged and kept" in rest.stdout
    assert len(gradebook(out)) == STUDENTS
