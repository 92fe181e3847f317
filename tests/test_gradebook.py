"""The gradebook on disk: the contract's files, kept consistent student by student."""
from __future__ import annotations

import csv
import json

from attnkit.gradebook import Gradebook, broken_result
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


def test_each_record_writes_feedback_and_the_whole_gradebook(tmp_path):
    book = Gradebook(tmp_path, COURSE)
    book.record(result_for("zoe", True))
    book.record(result_for("adam", False))
    rows = read_rows(tmp_path)
    assert rows[0] == ["student", *COURSE.ids, "total", "max_total"]
    assert [r[0] for r in rows[1:]] == ["adam", "zoe"]
    assert rows[2][-2:] == [f"{COURSE.max_total:g}"] * 2 and rows[1][-2] == "0"
    record = json.loads((tmp_path / "feedback" / "adam.json").read_text())
    assert set(record) >= {"student", "score", "max_score", "exercises"}
    check = record["exercises"]["softmax"]["checks"][0]
    assert set(check) >= {"name", "passed", "points", "message"} and check["passed"] is False
    assert "values differ" in (tmp_path / "feedback" / "adam.md").read_text()


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
    assert leftovers == []


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
