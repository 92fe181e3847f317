"""The gradebook on disk: the contract's files, kept consistent student by student."""
from __future__ import annotations

import csv
import json
import os
import re
import stat

import mistune
import pytest

from attnkit import gradebook
from attnkit.errors import KitError
from attnkit.gradebook import GRADES, STAMP, Gradebook, broken_result
from attnkit.grading.results import CheckResult, ExerciseResult, ResultError, SubmissionResult
from kit import COURSE


def result_for(student: str, passed: bool, fingerprint: str = "f1") -> SubmissionResult:
    exercises = {}
    for exercise in COURSE.exercises:
        checks = [CheckResult(c.test, c.test, c.public, passed, c.points if passed else 0.0, c.points,
                              [] if passed else ["wrong-values"], "" if passed else "values differ")
                  for c in exercise.checks]
        exercises[exercise.id] = ExerciseResult(exercise.id, exercise.points, checks)
    return SubmissionResult(student, exercises, fingerprint=fingerprint)


def read_rows(out):
    with open(out / "grades.csv", newline="") as stream:
        return list(csv.reader(stream))


def test_each_record_writes_its_feedback_and_save_the_whole_gradebook(tmp_path):
    book = Gradebook(tmp_path, COURSE)
    book.record(result_for("zoe", True))
    book.record(result_for("adam", False))
    book.save()
    rows = read_rows(tmp_path)
    assert rows[0] == ["student", *COURSE.ids, "total", "max_total"]
    assert [r[0] for r in rows[1:]] == ["adam", "zoe"]
    assert rows[2][-2:] == [f"{COURSE.max_total:g}"] * 2 and rows[1][-2] == "0"
    record = json.loads((tmp_path / "feedback" / "adam.json").read_text())
    assert set(record) >= {"student", "score", "max_score", "exercises"}
    check = record["exercises"]["softmax"]["checks"][0]
    assert set(check) >= {"name", "passed", "points", "message"} and check["passed"] is False
    assert "values differ" in (tmp_path / "feedback" / "adam.md").read_text()


def test_grades_csv_is_written_at_the_first_record_then_at_most_once_a_second(tmp_path, monkeypatch):
    """Rewriting the sorted file for every student cost a third of a class's grading process; each
    student's feedback file is still written at once, and `save` (the end of a run, Ctrl-C) writes the rest."""
    monkeypatch.setattr(gradebook, "GRADES_EVERY", 3600.0)
    book = Gradebook(tmp_path, COURSE)
    book.record(result_for("zoe", True))
    book.record(result_for("adam", False))
    assert [r[0] for r in read_rows(tmp_path)[1:]] == ["zoe"]
    assert (tmp_path / "feedback" / "adam.json").is_file()
    book.save()
    assert [r[0] for r in read_rows(tmp_path)[1:]] == ["adam", "zoe"]
    book.refuse_foreign_grades()  # no KitError: the stamp was written with it


def test_save_completes_a_grades_csv_an_interrupted_run_left_behind(tmp_path):
    """After a kill -9, feedback files may hold students grades.csv lacks: the next run's save adds them,
    though it grades no one."""
    Gradebook(tmp_path, COURSE).record(result_for("zoe", True))
    (tmp_path / "feedback" / "adam.json").write_text(json.dumps(result_for("adam", True).to_json()))
    Gradebook(tmp_path, COURSE).save()
    assert [r[0] for r in read_rows(tmp_path)[1:]] == ["adam", "zoe"]


def test_a_new_run_keeps_earlier_students_and_knows_who_is_current(tmp_path):
    Gradebook(tmp_path, COURSE).record(result_for("zoe", True, fingerprint="abc"))
    book = Gradebook(tmp_path, COURSE)
    assert book.is_current("zoe", "abc") and not book.is_current("zoe", "abd")
    book.record(result_for("adam", True))
    assert [r[0] for r in read_rows(tmp_path)[1:]] == ["adam", "zoe"]


def test_a_damaged_feedback_file_means_grading_again(tmp_path):
    (tmp_path / "feedback").mkdir()
    (tmp_path / "feedback" / "zoe.json").write_text("{not json")
    assert not Gradebook(tmp_path, COURSE).is_current("zoe", "abc")


def test_a_broken_submission_scores_zero_everywhere_with_its_reason(tmp_path):
    book = Gradebook(tmp_path, COURSE)
    book.record(broken_result(COURSE, "eve", "eve.zip: not a zip file"))
    record = json.loads((tmp_path / "feedback" / "eve.json").read_text())
    assert record["score"] == 0 and record["max_score"] == COURSE.max_total
    assert record["problem"] == "eve.zip: not a zip file"
    assert all(not c["passed"] for e in record["exercises"].values() for c in e["checks"])


def test_no_temporary_files_are_left_behind(tmp_path):
    Gradebook(tmp_path, COURSE).record(result_for("zoe", True))
    leftovers = [p.name for p in tmp_path.rglob(".*")]
    assert leftovers == [STAMP]


def test_a_feedback_record_reads_back_as_it_was_written():
    result = result_for("bea", False)
    result.exercises["attention"].checks[0].carried_from = ["softmax"]
    again = SubmissionResult.from_json(result.to_json())
    assert again == result and again.to_json() == result.to_json()


def test_a_record_with_a_wrong_field_is_refused_naming_it():
    record = result_for("bea", True).to_json()
    record["exercises"]["softmax"]["checks"][1]["points"] = float("nan")
    try:
        SubmissionResult.from_json(record)
    except ResultError as error:
        assert "exercises.softmax.checks[1].points" in str(error)
    else:
        raise AssertionError("a NaN score was accepted")


HOSTILE_IDS = ["=HYPERLINK(\"http://evil\")", "+1", "-2", "@SUM(A1)", "\tx", "../../escape", "a/b", "nul\x00id",
               "x" * 1000, "caf\\xe9", "\x1b[31mred", "\u202eevil"]


@pytest.mark.parametrize("student", HOSTILE_IDS)
def test_any_id_is_written_safely_and_its_json_keeps_the_real_id(tmp_path, student):
    Gradebook(tmp_path, COURSE).record(result_for(student, True))
    [json_file] = (tmp_path / "feedback").glob("*.json")
    assert json.loads(json_file.read_text())["student"] == student
    [row] = read_rows(tmp_path)[1:]
    assert not row[0].startswith(("=", "+", "-", "@", "\t", "\r")) and "\x00" not in row[0]
    assert float(row[-2]) == COURSE.max_total  # scores stay numbers
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f\u202e]", (tmp_path / GRADES).read_text())
    assert Gradebook(tmp_path, COURSE).is_current(student, "f1")  # and reads back


def test_the_same_student_under_another_spelling_replaces_the_row_and_files(tmp_path):
    Gradebook(tmp_path, COURSE).record(result_for("ALICE", False))
    Gradebook(tmp_path, COURSE).record(result_for("alice", True))
    assert [r[0] for r in read_rows(tmp_path)[1:]] == ["alice"]
    assert sorted(p.name for p in (tmp_path / "feedback").iterdir()) == ["alice.json", "alice.md"]


def test_student_text_in_the_feedback_page_is_inert(tmp_path):
    result = result_for("<b>bea</b>", False)
    check = result.exercises["softmax"].checks[0]
    check.message = "ValueError: # heading <script>alert(1)</script> [link](http://evil.example) \ud800"
    result.output = "```\n# printed heading\n<img src=x onerror=alert(1)>\n\x1b[31m"
    Gradebook(tmp_path, COURSE).record(result)
    [page] = (tmp_path / "feedback").glob("*.md")
    html = mistune.create_markdown(escape=False, plugins=["url"])(page.read_text())
    assert not re.search(r"<(script|img|a|b)\b", html) and "\x1b" not in html
    assert html.count("<h1>") == 1 and "<h1>printed" not in html and "<h1>heading" not in html


@pytest.mark.parametrize("umask,mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_gradebook_files_follow_the_umask(tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        Gradebook(tmp_path, COURSE).record(result_for("zoe", True))
    finally:
        os.umask(old)
    for path in [tmp_path / GRADES, *(tmp_path / "feedback").iterdir()]:
        assert stat.S_IMODE(path.stat().st_mode) == mode, path


def test_a_grades_csv_attnkit_did_not_write_is_refused_unless_forced(tmp_path):
    (tmp_path / GRADES).write_text("student,score\nalice,10\n")
    book = Gradebook(tmp_path, COURSE)
    with pytest.raises(KitError, match="grades.csv: not written by attnkit"):
        book.refuse_foreign_grades()
    book.refuse_foreign_grades(force=True)


def test_a_grades_csv_edited_since_attnkit_wrote_it_is_refused(tmp_path):
    Gradebook(tmp_path, COURSE).record(result_for("zoe", True))
    Gradebook(tmp_path, COURSE).refuse_foreign_grades()  # its own: fine
    with open(tmp_path / GRADES, "a") as stream:
        stream.write("zoe,bonus\n")
    with pytest.raises(KitError, match="edited since"):
        Gradebook(tmp_path, COURSE).refuse_foreign_grades()


def test_a_run_stopped_between_writing_grades_and_its_stamp_still_owns_them(tmp_path):
    Gradebook(tmp_path, COURSE).record(result_for("zoe", True))
    (tmp_path / STAMP).unlink()
    Gradebook(tmp_path, COURSE).refuse_foreign_grades()
