"""Hostile submissions, graded in a class beside honest ones, through the real `attnkit grade`.

Each folder of submissions/ is an overlay on the reference (see tests/submissions/README.md): its modules replace
the reference's, and the part of its name before `--` is the reason its exercise must fail with. One
class run grades them all, with three honest students and three hostile zips, on a copy of the course
(so a sandbox that failed could only damage the copy). Then, for every attack: its exercise scores 0
with its named reason, each honest student's feedback is exactly as when graded alone, the course files
are unchanged, no process is left, and the grader exits normally.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import secrets
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from attnkit.config import load_course
from attnkit.sandbox import isolation
from kit import COURSE, SUBMISSIONS, exercise_of_module, overlay_submission, reference_submission

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(isolation.probe() is not None, reason=f"no sandbox: {isolation.probe()}")]

HERE = Path(__file__).resolve().parent
HOSTILE_DIR = HERE / "submissions"
HOSTILE = sorted(p.name for p in HOSTILE_DIR.iterdir() if p.is_dir())
HONEST = {
    "reference": None,
    "correct--numpy-softmax": SUBMISSIONS / "correct" / "numpy-softmax",
    "mistake--softmax-wrong-dim--sum-0": SUBMISSIONS / "mistakes" / "softmax-wrong-dim--sum-0",
}
ZIPS = {
    "zip-dot-dot": "points outside the folder",
    "zip-symlink": "is a symbolic link",
    "zip-bomb": "a zip bomb",
}
CALL_TIMEOUT = 3  # seconds: the infinite loop costs this, not course.toml's ten
MEMORY_MB = 1200  # the memory bomb fills this much (torch alone maps 700 MB), not course.toml's 2048
SETTLE = 6.0  # seconds after grading for a delayed attack (the detached rewriter sleeps 4) to strike
SECRET_VARIABLE = "ATTNKIT_ADVERSARIAL_SECRET"


@dataclass
class ClassRun:
    out: Path
    course: Path
    marker: str
    secret: str
    report: dict
    course_before: dict[str, str]


def course_copy(target: Path) -> Path:
    """The course with tighter limits (a quicker test); hostile code meets this copy, never the repository."""
    for part in ("solutions", "exercises", "graders"):
        shutil.copytree(COURSE.root / part, target / part, ignore=shutil.ignore_patterns("__pycache__"))
    text = (COURSE.root / "course.toml").read_text()
    text = text.replace("call_timeout = 10.0", f"call_timeout = {CALL_TIMEOUT}")
    (target / "course.toml").write_text(text.replace("memory_limit_mb = 2048", f"memory_limit_mb = {MEMORY_MB}"))
    settings = load_course(target / "course.toml").settings
    assert (settings["call_timeout"], settings["memory_limit_mb"]) == (CALL_TIMEOUT, MEMORY_MB)
    return target


def digest(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}


def honest_submission(target: Path, overlay: Path | None) -> Path:
    return reference_submission(target) if overlay is None else overlay_submission(target, overlay)


def hostile_submission(target: Path, name: str, marker: str) -> Path:
    overlay_submission(target, HOSTILE_DIR / name)
    (target / "exercises" / "marker.py").write_text(f"NAME = {marker!r}\n")
    return target


def hostile_zips(folder: Path) -> None:
    reference = sorted(COURSE.solutions_dir.glob("*.py"))

    def package(archive: zipfile.ZipFile) -> None:
        for path in reference:
            archive.write(path, f"exercises/{path.name}")

    with zipfile.ZipFile(folder / "zip-dot-dot.zip", "w") as archive:
        package(archive)
        archive.writestr("../../../graders/test_softmax.py", "def test_lesson_weights(): pass\n")
    with zipfile.ZipFile(folder / "zip-symlink.zip", "w") as archive:
        package(archive)
        link = zipfile.ZipInfo("exercises/answers.py")
        link.external_attr = 0o120777 << 16
        archive.writestr(link, str(COURSE.solutions_dir / "softmax.py"))
    with zipfile.ZipFile(folder / "zip-bomb.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        package(archive)
        archive.writestr("exercises/bomb.py", b"#" * (512 << 20))


def grade(course: Path, submissions: Path, out: Path, *args: str, env: dict | None = None) -> dict:
    """`attnkit grade` as an instructor runs it, watched for processes it leaves behind."""
    command = [sys.executable, str(HERE / "leftovers.py"), str(SETTLE),
               "attnkit", "grade", str(submissions), "--out", str(out), *args]
    run = subprocess.run(command, cwd=course, capture_output=True, text=True, timeout=900,
                         env={**os.environ, **(env or {})})
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> ClassRun:
    root = tmp_path_factory.mktemp("adversarial")
    course = course_copy(root / "course")
    marker = f"adv-{secrets.token_hex(4)}"
    submissions = root / "submissions"
    for student, overlay in HONEST.items():
        honest_submission(submissions / student, overlay)
    for name in HOSTILE:
        hostile_submission(submissions / name, name, marker)
    hostile_zips(submissions)
    before = digest(course)
    secret = f"{marker}-secret"
    report = grade(course, submissions, root / "out", "--jobs", "2", env={SECRET_VARIABLE: secret})
    return ClassRun(root / "out", course, marker, secret, report, before)


@pytest.fixture(scope="module")
def alone(graded, tmp_path_factory) -> dict[str, dict]:
    """Each honest student's feedback from a run that grades only them."""
    root = tmp_path_factory.mktemp("alone")
    records = {}
    for student, overlay in HONEST.items():
        grade(graded.course, honest_submission(root / student, overlay), root / f"out-{student}", "--jobs", "1")
        records[student] = feedback(root / f"out-{student}", student)
    return records


def feedback(out: Path, student: str) -> dict:
    return json.loads((out / "feedback" / f"{student}.json").read_text())


def test_the_grader_exits_normally(graded):
    assert graded.report["returncode"] == 0, graded.report["stderr"]


def test_no_process_is_left_behind(graded):
    assert graded.report["leftovers"] == []


def test_course_files_are_unchanged(graded):
    assert digest(graded.course) == graded.course_before


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_exercise_scores_zero_with_its_reason(graded, name):
    reason = name.split("--")[0]
    modules = {p.stem for p in (HOSTILE_DIR / name).glob("*.py")} & {e.module for e in COURSE.exercises}
    record = feedback(graded.out, name)
    for module in modules:
        result = record["exercises"][exercise_of_module(COURSE, module)]
        assert result["score"] == 0, result
        assert reason in result["mistakes"], result


def verdicts(record: dict) -> dict:
    """Every check's verdict and points (not its wording: hidden inputs, so the numbers quoted, differ a run)."""
    return {exercise_id: [(c["name"], c["passed"], c["points"], c["mistake"]) for c in exercise["checks"]]
            for exercise_id, exercise in record["exercises"].items()}


@pytest.mark.parametrize("student", HONEST)
def test_honest_grade_is_as_when_graded_alone(graded, alone, student):
    record = feedback(graded.out, student)
    assert (record["score"], verdicts(record)) == (alone[student]["score"], verdicts(alone[student]))


@pytest.mark.parametrize("student,reason", ZIPS.items())
def test_hostile_zip_gets_zeros_and_its_reason(graded, student, reason):
    record = feedback(graded.out, student)
    assert record["score"] == 0
    assert reason in record["problem"]


def test_gradebook_agrees_with_every_feedback_file(graded):
    rows = list(csv.DictReader(io.StringIO((graded.out / "grades.csv").read_text())))
    assert {row["student"] for row in rows} == {*HONEST, *HOSTILE, *ZIPS}
    for row in rows:
        assert float(row["total"]) == feedback(graded.out, row["student"])["score"]


def test_no_secret_of_the_grader_reaches_the_output(graded):
    for path in graded.out.rglob("*"):
        if path.is_file():
            assert graded.secret not in path.read_text(errors="replace"), path


def test_nothing_a_student_returned_was_unpickled(graded):
    assert not Path(f"/tmp/{graded.marker}-pwned").exists()
