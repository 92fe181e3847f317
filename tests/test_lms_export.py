"""Gradebooks for Canvas and Moodle: the documented columns, every roster row, and what did not match listed."""
from __future__ import annotations

import csv
import io
import os
import subprocess
import sys

import pytest

from attnkit.gradebook import Gradebook
from attnkit.grading.results import CheckResult, ExerciseResult, SubmissionResult
from attnkit.lms_export import CANVAS_COLUMNS, export_gradebook, read_roster
from kit import COURSE, REPO


def graded(student: str, score: float) -> SubmissionResult:
    check = CheckResult("c", "test_c", False, True, score, 11.0)
    return SubmissionResult(student, {"softmax": ExerciseResult("softmax", 11.0, [check])})


CLASS = [graded("ALICE", 9.0), graded("bob", 11.0), graded("eve", 3.0)]  # eve is on no roster
CANVAS_ROSTER = ('Student,ID,SIS User ID,SIS Login ID,Section,Old quiz (12)\n'
                 '    Points Possible,,,,,10\n'
                 '"Smith, Alice",101,S1,alice,Sec A,7\n'
                 '"Jones, Bob",102,S2,bob,Sec A,8\n'
                 '"=Cole, Carl",103,S3,carl,Sec B,9\n')
MOODLE_ROSTER = ("First name,Last name,ID number,Institution,Department,Email address\n"
                 "Alice,Smith,S1,,,alice@uni.example\nBob,Jones,,,,bob@uni.example\nCarl,Cole,S3,,,carl@uni.example\n")


def rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_canvas_has_its_columns_points_possible_and_every_roster_student(tmp_path):
    (tmp_path / "roster.csv").write_text(CANVAS_ROSTER)
    made = export_gradebook("canvas", read_roster(tmp_path / "roster.csv", "canvas"), CLASS, "Self-attention", 11)
    table = rows(made.text)
    assert table[0] == [*CANVAS_COLUMNS, "Self-attention"]
    assert table[1] == ["Points Possible", "", "", "", "", "11"]
    assert table[2:] == [["Smith, Alice", "101", "S1", "alice", "Sec A", "9"],
                         ["Jones, Bob", "102", "S2", "bob", "Sec A", "11"],
                         ["'=Cole, Carl", "103", "S3", "carl", "Sec B", ""]]
    assert made.unmatched == ["eve"] and made.missing == ["=Cole, Carl"]


def test_moodle_is_keyed_by_the_email_address_it_matches_on(tmp_path):
    (tmp_path / "roster.csv").write_text(MOODLE_ROSTER)
    made = export_gradebook("moodle", read_roster(tmp_path / "roster.csv", "moodle"), CLASS, "Self-attention", 11)
    table = rows(made.text)
    assert made.identifier == "Email address"
    assert table[0] == ["First name", "Last name", "ID number", "Email address", "Self-attention"]
    assert table[1:] == [["Alice", "Smith", "S1", "alice@uni.example", "9"],
                         ["Bob", "Jones", "", "bob@uni.example", "11"],
                         ["Carl", "Cole", "S3", "carl@uni.example", ""]]
    assert made.unmatched == ["eve"] and made.missing == ["Carl Cole"]


def test_a_roster_without_an_identifying_column_is_refused_naming_the_file(tmp_path):
    (tmp_path / "roster.csv").write_text("name,score\nalice,1\n")
    with pytest.raises(Exception, match="roster.csv: a moodle roster needs one of the columns"):
        read_roster(tmp_path / "roster.csv", "moodle")


def test_the_command_writes_the_file_and_lists_the_unmatched_on_stderr(tmp_path):
    book = Gradebook(tmp_path / "out", COURSE)
    for result in CLASS:
        book.record(result)
    book.save()
    (tmp_path / "roster.csv").write_text(CANVAS_ROSTER)
    env = {**os.environ, "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-m", "attnkit", "export", str(tmp_path / "out"), "--to", "canvas",
                           "--roster", str(tmp_path / "roster.csv")], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "eve: graded, but matches no row of roster.csv" in done.stderr
    assert "=Cole, Carl: on the roster with no submission" in done.stderr
    assert rows((tmp_path / "out" / "canvas-grades.csv").read_text())[2][-1] == "9"
