"""`attnkit grade` as an instructor meets it: what it refuses, and a class of odd names and hostile text.

The policy tests call `grade_class` (the library function under the command); the class is graded
once through the real command, and each test then reads one behaviour off what it wrote and printed.
"""
from __future__ import annotations

import csv
import json
import os
import re
import shutil
import site
import subprocess
import zipfile
from pathlib import Path

import pytest

from attnkit.class_grading import (
    SCRATCH_PREFIX,
    SHARED_MEMORY,
    Listener,
    grade_class,
    remove_stale_scratch,
    scratch_folder,
)
from attnkit.errors import KitError
from attnkit.submissions import MAX_TOTAL_BYTES
from kit import COURSE, REPO, reference_submission


def reference_zip(path: Path, prefix: str = "exercises/") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        for module in COURSE.solutions_dir.glob("*.py"):
            archive.write(module, prefix + module.name)
    return path


def set_mtime(path: Path, stamp: float) -> None:
    for each in [path, *path.rglob("*")]:
        os.utime(each, (stamp, stamp), follow_symlinks=False)


# --- refused before anything is graded ------------------------------------------------------------


shared_memory = pytest.mark.skipif(not os.access(SHARED_MEMORY, os.W_OK), reason=f"no writable {SHARED_MEMORY} here")


@shared_memory
def test_a_class_is_copied_out_into_memory_when_it_has_room(tmp_path, monkeypatch):
    """On ext4, creating the copies' files cost up to 1.4 s of a 1,000 class's start; in memory, 0.15 s."""
    monkeypatch.delenv("TMPDIR", raising=False)
    reference_submission(tmp_path / "class" / "ann")
    assert scratch_folder(tmp_path / "class") == SHARED_MEMORY


@shared_memory
def test_a_class_that_could_unpack_past_the_free_memory_is_copied_to_disk(tmp_path, monkeypatch):
    """Room is counted for every submission at the most a zip may unpack to."""
    monkeypatch.delenv("TMPDIR", raising=False)
    free = os.statvfs(SHARED_MEMORY)
    (tmp_path / "class").mkdir()
    for index in range(free.f_bavail * free.f_frsize // MAX_TOTAL_BYTES + 1):
        (tmp_path / "class" / f"s{index}.zip").touch()
    assert scratch_folder(tmp_path / "class") is None


def test_tmpdir_when_set_is_where_the_class_is_copied_out(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    reference_submission(tmp_path / "class" / "ann")
    assert scratch_folder(tmp_path / "class") is None  # tempfile then uses TMPDIR


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="which processes live is read from /proc")
def test_a_class_copy_left_by_a_killed_run_is_removed_by_the_next(tmp_path):
    """In /dev/shm a copy holds memory until removed; one whose run still lives (this one) is kept."""
    dead = 4_000_000  # above any pid_max: no process has it
    for owner in (dead, os.getpid(), 1):
        (tmp_path / f"{SCRATCH_PREFIX}{owner}-x1" / "exercises").mkdir(parents=True)
    (tmp_path / f"{SCRATCH_PREFIX}old-style").mkdir()
    remove_stale_scratch(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [f"{SCRATCH_PREFIX}{os.getpid()}-x1", f"{SCRATCH_PREFIX}1-x1", f"{SCRATCH_PREFIX}old-style"])


def test_a_handout_course_is_refused(tmp_path):
    handout = tmp_path / "handout"
    handout.mkdir()
    shutil.copy(REPO / "course.toml", handout / "course.toml")
    shutil.copytree(REPO / "graders", handout / "graders")  # public checks, but no solutions/
    from attnkit.config import load_course

    reference_submission(tmp_path / "class" / "ann")
    with pytest.raises(KitError, match=r"course.toml: this is a handout's course \(no solutions/ folder"):
        grade_class(load_course(handout / "course.toml"), tmp_path / "class", tmp_path / "out", jobs=1)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("out", ["class", "class/grades", "class/ann/grades"])
def test_an_output_folder_inside_the_submissions_is_refused(tmp_path, out):
    reference_submission(tmp_path / "class" / "ann")
    with pytest.raises(KitError, match="inside the submissions folder"):
        grade_class(COURSE, tmp_path / "class", tmp_path / out, jobs=1)
    assert not (tmp_path / "class" / "grades").exists()


def test_a_grades_csv_it_did_not_write_is_left_alone(tmp_path):
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "eve.zip").write_text("not a zip")  # broken: nothing needs grading
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "grades.csv").write_text("student,final\nann,A\n")
    with pytest.raises(KitError, match="not written by attnkit"):
        grade_class(COURSE, tmp_path / "class", tmp_path / "out", jobs=1)
    assert (tmp_path / "out" / "grades.csv").read_text() == "student,final\nann,A\n"
    run = grade_class(COURSE, tmp_path / "class", tmp_path / "out", jobs=1, force=True)
    assert run.broken == 1 and "eve" in (tmp_path / "out" / "grades.csv").read_text()


def broken_class(folder: Path, *students: str) -> Path:
    """A class of broken zips: recorded with their reason, nothing graded, so a run takes no time."""
    folder.mkdir(parents=True)
    for student in students:
        (folder / f"{student}.zip").write_text("not a zip")
    return folder


def test_an_output_folder_holding_another_class_is_refused_and_force_replaces_it(tmp_path):
    grade_class(COURSE, broken_class(tmp_path / "first", "ann", "bob"), tmp_path / "out", jobs=1)
    before = (tmp_path / "out" / "grades.csv").read_text()
    with pytest.raises(KitError, match=r"holds the grades of 2 student\(s\) with no submission in .*second "
                                       r"\(ann, bob\): another class's gradebook"):
        grade_class(COURSE, broken_class(tmp_path / "second", "cat"), tmp_path / "out", jobs=1)
    assert (tmp_path / "out" / "grades.csv").read_text() == before
    run = grade_class(COURSE, tmp_path / "second", tmp_path / "out", jobs=1, force=True)
    assert run.counts.students == 1
    assert [line.split(",")[0] for line in (tmp_path / "out" / "grades.csv").read_text().splitlines()[1:]] == ["cat"]
    assert sorted(p.name for p in (tmp_path / "out" / "feedback").iterdir()) == ["cat.json", "cat.md"]


def test_the_same_class_with_a_student_more_is_graded_into_its_folder(tmp_path):
    grade_class(COURSE, broken_class(tmp_path / "class", "ann"), tmp_path / "out", jobs=1)
    (tmp_path / "class" / "bob.zip").write_text("not a zip")
    assert grade_class(COURSE, tmp_path / "class", tmp_path / "out", jobs=1).counts.students == 2


class Recorder(Listener):
    def __init__(self) -> None:
        self.warnings: list[str] = []

    def warn(self, message: str) -> None:
        self.warnings.append(message)


@pytest.mark.parametrize("given,named", [("class", "class/eve.zip"), ("class/eve.zip", "eve.zip")])
def test_a_broken_submission_is_recorded_with_its_reason_and_no_path_of_this_machine(tmp_path, given, named):
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "eve.zip").write_text("not a zip")
    recorder = Recorder()
    run = grade_class(COURSE, tmp_path / given, tmp_path / "out", jobs=1, listener=recorder)
    record = json.loads((tmp_path / "out" / "feedback" / "eve.json").read_text())
    assert record["problem"] == f"{named}: not a zip file" and record["score"] == 0
    assert recorder.warnings == [f"eve: not graded: {named}: not a zip file"] and run.report is not None


# --- a class of odd names and hostile text, graded once through the real command --------------------

HOSTILE_SOFTMAX = '''import os
import torch

print("\\x1b[31mRED\\x1b[0m <script>alert(1)</script>")
print("# printed heading [link](http://evil.example)")
print("paths", __file__, os.path.abspath("."), torch.__file__)


def softmax(scores, dim=-1):
    raise ValueError("\\x1b]0;retitled\\x07 \\u202eevil " + __file__ + " " + torch.__file__)
'''
NON_UTF8 = b"caf\xe9"
LONG_ID = "long" * 60
ESCAPE_ID = "\x1b[31mred"


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A class with duplicates, odd names, broken links and a hostile student, graded by `attnkit grade`."""
    root = tmp_path_factory.mktemp("odd-class")
    cls = root / "class"
    reference_submission(cls / "alice")
    reference_zip(cls / "ALICE.zip")
    set_mtime(cls / "alice", 1_000_000)
    reference_zip(cls / "bob.zip")
    reference_zip(cls / "bob (1).zip")
    set_mtime(cls / "bob.zip", 1_000_000)
    reference_submission(cls / ESCAPE_ID)
    reference_zip(cls / (ESCAPE_ID.replace("red", "RED") + ".zip"))
    set_mtime(cls / ESCAPE_ID, 1_000_000)
    reference_zip(cls / "=cmd|' -C calc'!A0.zip")
    reference_submission(cls / LONG_ID)
    reference_submission(Path(os.fsdecode(bytes(cls) + b"/" + NON_UTF8)))
    reference_submission(cls / "zoe\u0308")
    reference_zip(cls / "loose.zip", prefix="")
    os.symlink("nowhere", cls / "dangling.zip")
    os.symlink("looping", cls / "looping")
    os.mkfifo(cls / "fifo.zip")
    (reference_submission(cls / "mallory") / "exercises" / "softmax.py").write_text(HOSTILE_SOFTMAX)
    out = root / "out"
    process = subprocess.run(["attnkit", "grade", str(cls), "--out", str(out)], cwd=REPO,
                             capture_output=True, text=True, timeout=600)
    assert process.returncode == 0, process.stderr
    with open(out / "grades.csv", newline="") as stream:
        rows = {row["student"]: row for row in csv.DictReader(stream)}
    return process, out, rows, cls


def feedback(out: Path, student_file: str) -> dict:
    return json.loads((out / "feedback" / f"{student_file}.json").read_text())


@pytest.mark.slow
def test_two_submissions_with_one_id_make_one_row_and_a_warning_naming_the_other(graded):
    process, _, rows, _ = graded
    assert "ALICE" in rows and "alice" not in rows and "bob" in rows and "bob (1)" not in rows
    assert "ALICE: two submissions with one id; graded ALICE.zip, the most recently modified, not alice" \
        in process.stderr
    assert "graded bob (1).zip, the most recently modified, not bob.zip" in process.stderr


@pytest.mark.slow
def test_nothing_a_student_named_reaches_the_terminal_unescaped(graded):
    process, *_ = graded
    assert "\x1b" not in process.stdout + process.stderr
    assert "\\x1b[31mRED: two submissions with one id" in process.stderr


@pytest.mark.slow
def test_broken_links_and_odd_files_get_their_row_and_the_class_is_graded(graded):
    process, out, rows, _ = graded
    for student, reason in [("dangling", "leads nowhere"), ("looping", "loops"), ("fifo", "neither a folder")]:
        assert rows[student]["total"] == "0" and reason in feedback(out, student)["problem"]
    full = f"{COURSE.max_total:g}"
    assert {s for s, row in rows.items() if row["total"] == full} == \
        {"ALICE", "bob", "\\x1b[31mRED", "'=cmd|' -C calc'!A0", LONG_ID, "caf\\xe9", "zoë", "loose"}


@pytest.mark.slow
def test_a_formula_id_is_quoted_in_the_csv(graded):
    _, _, rows, _ = graded
    assert not [s for s in rows if s.startswith(("=", "+", "-", "@"))]
    assert "'=cmd|' -C calc'!A0" in rows


@pytest.mark.slow
def test_any_id_gets_a_feedback_file_whose_json_keeps_the_real_id(graded):
    _, out, _, _ = graded
    students = {json.loads(p.read_text())["student"]: p.name for p in (out / "feedback").glob("*.json")}
    assert {"=cmd|' -C calc'!A0", LONG_ID, "caf\\xe9", "zoë", "\x1b[31mRED"} <= set(students)
    assert all(len(name.encode()) <= 255 and "\x1b" not in name for name in students.values())


@pytest.mark.slow
def test_feedback_shows_no_path_of_the_grading_machine(graded):
    _, out, _, cls = graded
    texts = (out / "feedback" / "mallory.json").read_text() + (out / "feedback" / "mallory.md").read_text()
    for private in [str(REPO), str(cls), *site.getsitepackages(), "/submission", "attnkit-"]:
        assert private not in texts, private
    record = feedback(out, "mallory")
    assert "exercises/softmax.py" in record["output"] and "torch/__init__.py" in record["output"]


@pytest.mark.slow
def test_a_class_report_is_written_and_the_common_mistakes_printed(graded):
    process, out, rows, _ = graded
    report = json.loads((out / "report.json").read_text())
    assert len(report["students"]) == len(rows)
    assert report["exercises"]["softmax"]["mistakes"][0]["students"] == ["mallory"]
    assert "<script>" not in (out / "report.html").read_text()
    assert re.search(r"Most common mistakes:\n\s+1 student\s+crash \(softmax\)", process.stdout)


@pytest.mark.slow
def test_the_terminal_the_report_and_grades_csv_give_the_same_counts(graded):
    process, out, rows, _ = graded
    report = json.loads((out / "report.json").read_text())
    records = [json.loads(p.read_text()) for p in (out / "feedback").glob("*.json")]
    broken = [r["student"] for r in records if r["problem"]]
    assert len(records) == len(rows)
    counts = {"students": len(rows), "graded": len(rows) - len(broken), "broken": len(broken), "duplicates": 3}
    assert report["counts"] == counts and len(broken) == 3
    said = f"{len(rows)} students, {len(rows) - 3} graded and 3 broken (zeros), 3 ids with two or more submissions"
    assert said in process.stdout and said in (out / "report.html").read_text()


@pytest.mark.slow
def test_a_duplicate_id_is_recorded_in_the_report(graded):
    _, out, _, _ = graded
    duplicates = {d["student"]: d for d in json.loads((out / "report.json").read_text())["duplicates"]}
    assert duplicates["bob"] == {"student": "bob", "graded": "bob (1).zip", "set_aside": ["bob.zip"]}
    assert duplicates["ALICE"]["set_aside"] == ["alice"] and set(duplicates) == {"ALICE", "bob", "\x1b[31mRED"}
    assert "bob: graded bob (1).zip, the most recently modified; not bob.zip" in (out / "report.html").read_text()


@pytest.mark.slow
def test_nbgrader_submitted_folders_are_graded_from_their_answer_cells(tmp_path):
    import nbformat

    from attnkit.nbgrader.extract import answer_cell_id

    notebook = nbformat.v4.new_notebook()
    for exercise in COURSE.exercises:
        source = f"# attnkit exercise: {exercise.id}\n" + (COURSE.solutions_dir / f"{exercise.module}.py").read_text()
        cell = nbformat.v4.new_code_cell(source)
        cell.metadata["nbgrader"] = {"grade_id": answer_cell_id(exercise.id), "solution": True}
        notebook.cells.append(cell)
    folder = tmp_path / "submitted" / "alice" / "self_attention"
    folder.mkdir(parents=True)
    nbformat.write(notebook, folder / "self_attention.ipynb")
    run = grade_class(COURSE, tmp_path / "submitted", tmp_path / "out", jobs=1)
    record = json.loads((tmp_path / "out" / "feedback" / "alice.json").read_text())
    assert run.graded == 1 and record["score"] == COURSE.max_total, record["problem"]
