"""Hostile submissions, graded in a class beside honest ones, through the real `attnkit grade`.

Each folder of submissions/ is an overlay on the reference (see tests/submissions/README.md): its modules
replace the reference's, and the part of its name before `--` is the reason its exercise must fail with
(`classroom.attacked_exercises` says which exercise that is). One class run grades them all, with
honest students and three hostile zips, on a copy of the course. Then, for every attack: its exercise
scores 0 with its named reason, each honest student's verdicts are exactly as in a class of honest
students alone, the course files are unchanged, no process is left, and the grader exits normally.

Two families are graded here beside the first attacks:
- `malformed-reply--*`: the student's code writes frames of its own on the sandbox's reply pipe
  (forgery.py is its toolkit). The trusted end must refuse every frame that is not a well-formed
  answer to the request it sent: the whole submission gets zeros, its `problem` says its process sent
  a malformed reply, the exercise names `malformed-reply`; no other student is touched, the run exits
  0, and no file the kit writes is larger than 1 MB or unreadable.
- `softmax-builtin--*`: the softmax exercise computes softmax with a library routine through some
  other door (docs/contract.md section 2): it must fail naming `softmax-builtin`, and no other exercise is
  blamed for it. The softmax exercise's sandbox refuses those routines at torch's dispatcher
  (`attnkit.sandbox.refusals`), so a call fails however it was reached, and the grader reads that
  from what came back; the submitted source is read for the feedback's words and for library code no
  refused kernel sees (scipy). The honest softmaxes beside them (a log-sum-exp, numpy, float64 inside,
  on a thread, inside a Tensor subclass, helpers in the same module, prose that names the built-in,
  the built-in used in attention) must not be.
"""
from __future__ import annotations

import csv
import io
import re
import secrets
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from classroom import (
    HERE,
    NEEDS_SANDBOX,
    NO_DELAYED_ATTACK,
    TIGHT_SETTINGS,
    attacked_exercises,
    digest,
    feedback,
    grade,
    honest_submission,
    hostile_submission,
    overlays,
    oversized_files,
    unreadable_files,
    verdicts,
)
from kit import COURSE, SUBMISSIONS, course_copy

pytestmark = NEEDS_SANDBOX

HOSTILE_DIR = HERE / "submissions"
HOSTILE = overlays(HOSTILE_DIR)
MALFORMED = [name for name in HOSTILE if name.startswith("malformed-reply--")]
BUILTIN = [name for name in HOSTILE if name.startswith("softmax-builtin--")]
HONEST = {
    "reference": None,
    "correct--numpy-softmax": SUBMISSIONS / "correct" / "numpy-softmax",
    "correct--logsumexp-softmax": SUBMISSIONS / "correct" / "logsumexp-softmax",
    "correct--torch-softmax-in-attention": SUBMISSIONS / "correct" / "torch-softmax-in-attention",
    "correct--softmax-with-helpers": HERE / "honest" / "softmax-with-helpers",
    "correct--names-the-builtin-in-prose": HERE / "honest" / "names-the-builtin-in-prose",
    "correct--forged-bytecode-is-not-run": HERE / "honest" / "forged-bytecode-is-not-run",
    "correct--float64-inside": HERE / "honest" / "float64-inside",
    "correct--softmax-on-a-thread": HERE / "honest" / "softmax-on-a-thread",
    "correct--logsumexp-gradient": HERE / "honest" / "logsumexp-gradient",
    "correct--tensor-subclass-that-logs": HERE / "honest" / "tensor-subclass-that-logs",
    "mistake--softmax-wrong-dim--sum-0": SUBMISSIONS / "mistakes" / "softmax-wrong-dim--sum-0",
}
ZIPS = {
    "zip-dot-dot": "points outside the folder",
    "zip-symlink": "is a symbolic link",
    "zip-bomb": "a zip bomb",
}
SECRET_VARIABLE = "ATTNKIT_ADVERSARIAL_SECRET"
GRADER_MEMORY_MB = 768  # the largest trusted process (about 250 MB when grading honest students)
MALFORMED_PROBLEM = re.compile(r"malformed[- ]reply", re.IGNORECASE)


@dataclass
class ClassRun:
    out: Path
    course: Path
    marker: str
    secret: str
    report: dict
    course_before: dict[str, str]


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


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> ClassRun:
    root = tmp_path_factory.mktemp("adversarial")
    course = course_copy(root / "course", **TIGHT_SETTINGS)
    marker = f"adv-{secrets.token_hex(4)}"
    submissions = root / "submissions"
    for student, overlay in HONEST.items():
        honest_submission(submissions / student, overlay)
    for name in HOSTILE:
        hostile_submission(submissions / name, HOSTILE_DIR / name, marker)
    hostile_zips(submissions)
    before = digest(course)
    secret = f"{marker}-secret"
    report = grade(course, submissions, root / "out", "--jobs", "2", env={SECRET_VARIABLE: secret})
    return ClassRun(root / "out", course, marker, secret, report, before)


@pytest.fixture(scope="module")
def alone(graded, tmp_path_factory) -> dict[str, dict]:
    """Each honest student's feedback from a run that grades the honest students and no one else."""
    root = tmp_path_factory.mktemp("alone")
    for student, overlay in HONEST.items():
        honest_submission(root / "submissions" / student, overlay)
    report = grade(graded.course, root / "submissions", root / "out", "--jobs", "2", settle=NO_DELAYED_ATTACK)
    assert report["returncode"] == 0, report["stderr"]
    return {student: feedback(root / "out", student) for student in HONEST}


def test_the_grader_exits_normally(graded):
    assert graded.report["returncode"] == 0, graded.report["stderr"][-3000:]


def test_no_process_is_left_behind(graded):
    assert graded.report["leftovers"] == []


def test_course_files_are_unchanged(graded):
    assert digest(graded.course) == graded.course_before


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_exercise_scores_zero_with_its_reason(graded, name):
    reason = name.split("--")[0]
    record = feedback(graded.out, name)
    for exercise_id in attacked_exercises(HOSTILE_DIR / name):
        result = record["exercises"][exercise_id]
        assert result["score"] == 0, result
        assert reason in result["mistakes"], result


@pytest.mark.parametrize("name", MALFORMED)
def test_a_malformed_reply_zeroes_the_whole_submission_and_says_why(graded, name):
    record = feedback(graded.out, name)
    assert record["score"] == 0, {e: r["score"] for e, r in record["exercises"].items()}
    assert MALFORMED_PROBLEM.search(record["problem"]), record["problem"][:500]


@pytest.mark.parametrize("name", BUILTIN)
def test_builtin_softmax_is_blamed_on_the_softmax_exercise_only(graded, name):
    """Attention and projection may use any softmax: a student's other exercises are not blamed."""
    record = feedback(graded.out, name)
    blamed = [e for e, result in record["exercises"].items() if "softmax-builtin" in result["mistakes"]]
    assert blamed == ["softmax"], blamed


@pytest.mark.parametrize("student", HONEST)
def test_honest_grade_is_as_when_graded_alone(graded, alone, student):
    record = feedback(graded.out, student)
    assert (record["score"], verdicts(record)) == (alone[student]["score"], verdicts(alone[student]))


@pytest.mark.parametrize("student", HONEST)
def test_an_honest_softmax_is_never_called_builtin(graded, student):
    record = feedback(graded.out, student)
    assert all("softmax-builtin" not in result["mistakes"] for result in record["exercises"].values()), record


@pytest.mark.parametrize("student", [s for s in HONEST if not s.startswith("mistake--")])
def test_an_honest_correct_softmax_gets_full_marks(graded, student):
    softmax = feedback(graded.out, student)["exercises"]["softmax"]
    assert softmax["score"] == softmax["max_score"], softmax["mistakes"]


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


def test_no_file_the_kit_writes_is_huge(graded):
    assert oversized_files(graded.out) == {}


def test_every_file_the_kit_writes_is_readable(graded):
    assert unreadable_files(graded.out) == {}


def test_the_graders_memory_stays_flat(graded):
    """Huge and flooding frames are refused as they arrive, not decoded into the trusted process."""
    assert graded.report["grader_peak_mb"] < GRADER_MEMORY_MB, graded.report["grader_peak_mb"]


def test_no_secret_of_the_grader_reaches_the_output(graded):
    for path in graded.out.rglob("*"):
        if path.is_file():
            assert graded.secret not in path.read_text(errors="replace"), path


def test_nothing_a_student_returned_was_unpickled(graded):
    assert not Path(f"/tmp/{graded.marker}-pwned").exists()
