"""The gradebook on disk: grades.csv and feedback/<student>.{json,md}.

Written as each student finishes, every file replaced atomically, so an
interrupted run leaves a consistent gradebook of the students done. A second
run on the same folder skips submissions whose fingerprint is unchanged.
"""
from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from attnkit.config import Course
from attnkit.errors import KitError
from attnkit.grading.results import CheckResult, ExerciseResult, SubmissionResult
from attnkit.reports import feedback_markdown

GRADES = "grades.csv"
FEEDBACK = "feedback"


def write_atomically(path: Path, text: str) -> None:
    """Replace `path` in one step: readers see the old file or the new, never half."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
        stream.write(text)
    os.replace(temporary, path)


class Gradebook:
    """One output folder's grades: what is there already, and each new result as it comes."""

    def __init__(self, out: Path, course: Course):
        self.out = Path(out)
        self.course = course
        self.feedback_dir = self.out / FEEDBACK
        try:
            self.feedback_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise KitError(f"{self.out}: cannot create the output folder: {error.strerror}") from None
        self.records: dict[str, dict[str, Any]] = self._read_existing()

    def _read_existing(self) -> dict[str, dict[str, Any]]:
        records = {}
        for path in sorted(self.feedback_dir.glob("*.json")):
            try:
                record = json.loads(path.read_text(encoding="utf-8"))
                records[record["student"]] = record
            except (ValueError, KeyError, TypeError):
                continue  # a damaged file is simply graded again
        return records

    def is_current(self, student: str, fingerprint: str) -> bool:
        """Graded before from exactly these files (and these graders)."""
        record = self.records.get(student)
        return bool(fingerprint) and record is not None and record.get("fingerprint") == fingerprint

    def record(self, result: SubmissionResult) -> None:
        """Write this student's feedback, then the gradebook with their row."""
        record = result.to_json()
        write_atomically(self.feedback_dir / f"{result.student}.json", json.dumps(record, indent=2) + "\n")
        write_atomically(self.feedback_dir / f"{result.student}.md", feedback_markdown(result, self.course))
        self.records[result.student] = record
        write_atomically(self.out / GRADES, self.grades_csv())

    def grades_csv(self) -> str:
        """`student,<exercise id>...,total,max_total`, one row a student, sorted by student."""
        ids = self.course.ids
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["student", *ids, "total", "max_total"])
        for student in sorted(self.records):
            exercises = self.records[student].get("exercises", {})
            scores = [float(exercises.get(i, {}).get("score", 0.0)) for i in ids]
            writer.writerow([student, *(_number(s) for s in scores), _number(sum(scores)),
                             _number(self.course.max_total)])
        return buffer.getvalue()


def _number(value: float) -> str:
    return f"{value:g}"


def broken_result(course: Course, student: str, problem: str, fingerprint: str = "") -> SubmissionResult:
    """Zeros on every check of every exercise, each saying why."""
    exercises = {}
    for exercise in course.exercises:
        checks = [CheckResult(check.test, check.test, check.public, passed=False, points=0.0,
                              max_points=check.points, message=problem) for check in exercise.checks]
        exercises[exercise.id] = ExerciseResult(exercise.id, exercise.points, checks)
    return SubmissionResult(student, exercises, problem=problem, fingerprint=fingerprint)
