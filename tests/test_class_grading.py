"""The whole kit on a class: every catalogued mistake caught, every correct answer accepted.

One `attnkit grade` run (a real subprocess, the instructor's path) grades a
class made of the reference, the stubs, every catalogue variant, the
hand-written mistakes and correct alternatives of tests/submissions/, and
broken submissions; each test then reads one student's feedback.
"""
from __future__ import annotations

import csv
import json
import subprocess
import zipfile
from pathlib import Path

import pytest

from kit import (
    CATALOGUE,
    COURSE,
    QUICK_CALLS,
    SUBMISSIONS,
    course_copy,
    exercise_of_module,
    overlay_submission,
    reference_submission,
    stub_submission,
    variant_submission,
)

pytestmark = pytest.mark.slow

VARIANTS = [(m.id, i, v) for m in CATALOGUE.with_variants() for i, v in enumerate(m.variants)]
CORRECT = sorted(p.name for p in (SUBMISSIONS / "correct").iterdir() if p.is_dir())
MISTAKES = sorted(p.name for p in (SUBMISSIONS / "mistakes").iterdir() if p.is_dir())
BROKEN = {
    "broken-no-exercises": "no `exercises` folder",
    "broken-empty-zip": "the zip is empty",
    "broken-not-a-zip": "not a zip file",
}


def build_class(folder: Path) -> None:
    reference_submission(folder / "reference")
    stub_submission(folder / "stubs")
    for mistake_id, index, variant in VARIANTS:
        variant_submission(folder / f"variant--{mistake_id}--{index}", variant)
    for name in CORRECT:
        overlay_submission(folder / f"correct--{name}", SUBMISSIONS / "correct" / name)
    for name in MISTAKES:
        overlay_submission(folder / f"mistake--{name}", SUBMISSIONS / "mistakes" / name)
    syntax = reference_submission(folder / "broken-syntax-error")
    (syntax / "exercises" / "softmax.py").write_text("def softmax(scores, dim=-1)\n    return scores\n")
    missing = reference_submission(folder / "broken-missing-module")
    (missing / "exercises" / "attention.py").unlink()
    (folder / "broken-no-exercises").mkdir()
    (folder / "broken-no-exercises" / "notes.txt").write_text("I forgot the code")
    zipfile.ZipFile(folder / "broken-empty-zip.zip", "w").close()
    (folder / "broken-not-a-zip.zip").write_text("this is not a zip")
    reference = reference_submission(folder.parent / "zip-source")
    subprocess.run(["attnkit", "submit", "--student", "zipped-reference", "--out", str(folder)],
                   cwd=reference, check=True, capture_output=True)


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> Path:
    """The output folder of one `attnkit grade` run over the whole class, on a copy of the course whose
    call_timeout is short (one student loops forever)."""
    root = tmp_path_factory.mktemp("class")
    course = course_copy(root / "course", **QUICK_CALLS)
    build_class(root / "submissions")
    out = root / "out"
    run = subprocess.run(["attnkit", "grade", str(root / "submissions"), "--out", str(out)],
                         cwd=course, capture_output=True, text=True, timeout=1800)
    assert run.returncode == 0, run.stderr
    return out


def feedback(out: Path, student: str) -> dict:
    return json.loads((out / "feedback" / f"{student}.json").read_text())


def test_gradebook_has_a_row_for_every_student(graded):
    with open(graded / "grades.csv", newline="") as stream:
        rows = list(csv.DictReader(stream))
    assert list(rows[0]) == ["student", *COURSE.ids, "total", "max_total"]
    students = {row["student"] for row in rows}
    assert {"reference", "stubs", "zipped-reference", *BROKEN} <= students
    assert len(students) == len(list((graded / "feedback").glob("*.json")))


@pytest.mark.parametrize("student", ["reference", "zipped-reference"])
def test_reference_gets_full_marks(graded, student):
    record = feedback(graded, student)
    failed = [(e, c["name"], c["message"]) for e, x in record["exercises"].items()
              for c in x["checks"] if not c["passed"]]
    assert failed == []
    assert record["score"] == record["max_score"] == COURSE.max_total


@pytest.mark.parametrize("exercise_id", COURSE.ids)
def test_untouched_stub_is_not_implemented(graded, exercise_id):
    result = feedback(graded, "stubs")["exercises"][exercise_id]
    assert result["score"] == 0
    assert result["mistakes"] == ["not-implemented"]


@pytest.mark.parametrize("mistake_id,index,variant", VARIANTS, ids=[f"{m}-{i}" for m, i, _ in VARIANTS])
def test_catalogued_variant_is_named(graded, mistake_id, index, variant):
    exercise_id = CATALOGUE[mistake_id].exercise
    result = feedback(graded, f"variant--{mistake_id}--{index}")["exercises"][exercise_id]
    assert result["score"] < result["max_score"]
    assert mistake_id in result["mistakes"]


@pytest.mark.parametrize("name", MISTAKES)
def test_hand_written_mistake_is_named(graded, name):
    mistake_id = name.split("--")[0]
    modules = [p.stem for p in (SUBMISSIONS / "mistakes" / name).glob("*.py")]
    exercise_id = exercise_of_module(COURSE, modules[0])
    result = feedback(graded, f"mistake--{name}")["exercises"][exercise_id]
    assert result["score"] < result["max_score"]
    assert mistake_id in result["mistakes"]


@pytest.mark.parametrize("name", CORRECT)
def test_correct_alternative_gets_full_marks(graded, name):
    record = feedback(graded, f"correct--{name}")
    for module in (SUBMISSIONS / "correct" / name).glob("*.py"):
        result = record["exercises"][exercise_of_module(COURSE, module.stem)]
        assert result["score"] == result["max_score"], result


@pytest.mark.parametrize("student,reason", BROKEN.items())
def test_broken_submission_gets_zeros_and_its_reason(graded, student, reason):
    record = feedback(graded, student)
    assert record["score"] == 0
    assert reason in record["problem"]
    assert (graded / "feedback" / f"{student}.md").read_text().count(reason) == 1


def test_syntax_error_is_a_crash_named_with_its_line(graded):
    record = feedback(graded, "broken-syntax-error")
    softmax = record["exercises"]["softmax"]
    assert softmax["score"] == 0 and softmax["mistakes"] == ["crash"]
    assert "SyntaxError" in softmax["checks"][0]["message"] and "softmax.py, line 1" in softmax["checks"][0]["message"]
    assert record["exercises"]["cake"]["score"] == record["exercises"]["cake"]["max_score"]


def test_missing_module_fails_its_exercise_and_those_built_on_it(graded):
    record = feedback(graded, "broken-missing-module")
    assert record["exercises"]["attention"]["score"] == 0
    assert record["exercises"]["attention"]["mistakes"] == ["not-implemented"]
    assert "there is no exercises/attention.py" in record["exercises"]["attention"]["checks"][0]["message"].lower()
    assert record["exercises"]["softmax"]["score"] == record["exercises"]["softmax"]["max_score"]


def test_a_correct_exercise_keeps_its_points_and_names_its_dependencys_mistake(graded):
    attention = feedback(graded, "variant--softmax-wrong-dim--0")["exercises"]["attention"]
    assert attention["score"] == attention["max_score"] and attention["carried_from"] == ["softmax"]
    assert attention["mistakes"] == []
    assert all("softmax-wrong-dim" in c["message"] and "stand-in" in c["message"] for c in attention["checks"])
