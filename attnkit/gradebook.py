"""The gradebook on disk: grades.csv, feedback/<student>.{json,md}, and the hidden inputs' seed.

A student's feedback files are written as soon as that student is graded; grades.csv (rewritten
whole, since it is sorted) at most once a second while a class is graded, and at the end. Every file
is replaced atomically (and created with the user's umask, like any file they write), so an
interrupted run leaves a consistent gradebook: Ctrl-C writes grades.csv before it exits; after a
kill -9, grades.csv may lack the last second's students, whose feedback files hold their grades, and
the next run on the same folder writes them into grades.csv without grading them again. (Rewriting
grades.csv and its stamp for every student replaced two files that exist, which on ext4 starts
writing their data out at once: a third of the grading process's time in a class of 1,000.) A second
run on the same folder skips submissions whose fingerprint is unchanged.

grades.csv is the instructor's to edit once grading is done, so a run never overwrites one it did
not write: the digest of each grades.csv written is kept in `.attnkit-gradebook` beside it, and a
grades.csv that matches neither that digest nor the feedback records is left alone unless the
instructor says `--force`. (Matching the records covers a run stopped between the two writes.)

What the class report compares but a student must never see (the numbers of wrong answers no catalogued
mistake explains, `WrongAnswer`, and each exercise's reduced-code digest, `shared_code`) is kept in one
file, `.attnkit-answers.json`, written with grades.csv, and joined to each student's result on reading
while its fingerprint is unchanged.
An output folder holds one class: a run whose submissions lack students the folder holds grades
for (another class's gradebook, as when two classes are sent to one `--out`) is refused, unless
`--force`, which drops those students' records so the folder holds this class alone. The ids that
came with two submissions are kept in `.attnkit-duplicates.json`, for the class report.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import secrets
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from attnkit.config import Course
from attnkit.errors import KitError
from attnkit.escaping import csv_cell, file_stem
from attnkit.grading.results import ResultError, SubmissionResult, WrongAnswer, zero_results
from attnkit.reports import feedback_markdown
from attnkit.submissions import student_key

GRADES = "grades.csv"
FEEDBACK = "feedback"
STAMP = ".attnkit-gradebook"
SEED = "hidden-inputs.seed"  # the assignment's seed of the hidden checks' inputs, one line of hex digits
ANSWERS = ".attnkit-answers.json"
DUPLICATES = ".attnkit-duplicates.json"
GRADES_EVERY = 1.0  # seconds at least between two writes of grades.csv while a class is graded


def write_atomically(path: Path, text: str) -> None:
    """Replace `path` in one step (readers see the old file or the new, never half), with the umask's mode."""
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(6)}")
    try:
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise KitError(f"{path}: cannot write: {error.strerror}") from None


class Gradebook:
    """One output folder's grades: what is there already, and each new result as it comes."""

    def __init__(self, out: Path, course: Course):
        """Read what `out` holds; nothing is written before the first `record`."""
        self.out = Path(out)
        self.course = course
        self.feedback_dir = self.out / FEEDBACK
        self.results: dict[str, SubmissionResult] = {}  # by student key
        self._rows: dict[str, tuple[SubmissionResult, str]] = {}  # by student key: the result and its CSV row
        self._unsaved = False  # a result recorded since grades.csv was last written
        self._grades_due = 0.0  # time.monotonic() from which a record writes grades.csv again
        self._folder_made = False
        for path in sorted(self.feedback_dir.glob("*.json")):
            result = _read_result(path)
            if result is not None:
                self.results[student_key(result.student)] = result
        self._answers_unsaved = False
        _join_answers(self.out / ANSWERS, self.results)
        self.duplicates = _read_duplicates(self.out / DUPLICATES)

    def others(self, students: list[str]) -> list[str]:
        """The students this folder holds grades for who are not among `students`, sorted."""
        keys = {student_key(student) for student in students}
        return sorted((r.student for key, r in self.results.items() if key not in keys), key=str.casefold)

    def refuse_another_class(self, students: list[str], submissions: Path, *, force: bool = False) -> None:
        """KitError when this folder holds grades for students with no submission among `students` (another
        class's, or a class graded from another folder), unless `force`: then their records go."""
        others = self.others(students)
        if not others:
            return
        if not force:
            named = ", ".join(others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3 else "")
            raise KitError(f"{self.out}: holds the grades of {len(others)} student(s) with no submission in "
                           f"{submissions} ({named}): another class's gradebook? Choose another --out, or "
                           "--force to replace it with this class's")
        for student in others:
            for suffix in (".json", ".md"):
                (self.feedback_dir / (file_stem(student) + suffix)).unlink(missing_ok=True)
            del self.results[student_key(student)]
        self._unsaved = True

    def record_duplicates(self, duplicates: dict[str, list[str]]) -> None:
        """This run's ids that came with more than one submission: the id, then the submission graded and
        those set aside (every run triages the whole class, so this replaces the last run's)."""
        if duplicates == self.duplicates and (self.out / DUPLICATES).exists() == bool(duplicates):
            return
        self.duplicates = duplicates
        if duplicates:
            write_atomically(self.out / DUPLICATES, json.dumps(duplicates, indent=2, ensure_ascii=False) + "\n")
        else:
            (self.out / DUPLICATES).unlink(missing_ok=True)

    def refuse_foreign_grades(self, *, force: bool = False) -> None:
        """KitError when `out` holds a grades.csv this kit did not write (or one edited since), unless `force`."""
        grades = self.out / GRADES
        if grades.is_file() and not force and not self._wrote(grades.read_bytes()):
            raise KitError(f"{grades}: not written by attnkit, or edited since; grading would overwrite it "
                           "(choose another --out, or --force to overwrite it)")

    def _wrote(self, grades: bytes) -> bool:
        try:
            stamp = (self.out / STAMP).read_text(encoding="utf-8").strip()
        except OSError:
            stamp = ""
        return _digest(grades) == stamp or grades == self.grades_csv().encode("utf-8")

    def hidden_inputs_seed(self, *, new: bool = False) -> str:
        """The seed this output folder's hidden checks draw their inputs from: the one kept in `SEED`, or (the
        first time, or with `new`) a fresh one, written there before anyone is graded.

        One seed an assignment, so a regrade (a fixed catalogue, changed graders) asks the same questions of
        unchanged code and gives it the same verdict (a resubmission meets new ones: `hidden_inputs_salt`);
        `--new-inputs` draws again. What code prints during hidden checks is not shown in its feedback.
        """
        path = self.out / SEED
        if not new and path.exists():
            try:
                seed = path.read_text(encoding="ascii").strip()
            except (OSError, UnicodeDecodeError) as error:
                raise KitError(f"{path}: cannot read the hidden inputs' seed ({error}); delete it, or "
                               "grade with --new-inputs") from None
            if not re.fullmatch(r"[0-9a-f]{16,64}", seed):
                raise KitError(f"{path}: not a seed attnkit wrote (16 to 64 hex digits); delete it, or "
                               "grade with --new-inputs")
            return seed
        seed = secrets.token_hex(8)
        self._make_folder()
        write_atomically(path, seed + "\n")
        return seed

    def hidden_inputs_salt(self, student: str, files: str, seed: str) -> str:
        """What one student's hidden checks draw from: the assignment's `seed`, or, for files other than those
        graded for this student under it (a resubmission), the seed and the files' digest together; files
        graded before get the salt they had (fingerprints are `graders:salt:files`).

        So unchanged code meets the same hidden questions on every regrade, and changed code new ones: whatever
        a student learnt of the inputs from their feedback (an error message may hold numbers) is no use to a
        resubmission. Every first submission shares the seed, so the reference's answers are worked out once.
        """
        earlier = self.results.get(student_key(student))
        if earlier is not None:
            _, salt, graded = (["", "", ""] + earlier.fingerprint.split(":", 2))[-3:]
            if salt == seed or salt.startswith(f"{seed}-"):  # graded under this seed
                return salt if graded == files else f"{seed}-{_digest(files.encode('utf-8'))[:16]}"
        return seed

    def is_current(self, student: str, fingerprint: str) -> bool:
        """Graded before from exactly these files (and these graders)."""
        result = self.results.get(student_key(student))
        return bool(fingerprint) and result is not None and result.fingerprint == fingerprint

    def record(self, result: SubmissionResult) -> None:
        """Write this student's feedback, then grades.csv with their row if a second has passed since it was
        last written (`save` writes it in any case)."""
        self._make_folder()
        key = student_key(result.student)
        earlier = self.results.get(key)
        if earlier is not None and file_stem(earlier.student) != file_stem(result.student):
            for suffix in (".json", ".md"):  # the same student under another spelling of the id
                (self.feedback_dir / (file_stem(earlier.student) + suffix)).unlink(missing_ok=True)
        stem = file_stem(result.student)
        write_atomically(self.feedback_dir / f"{stem}.json", json.dumps(result.to_json(), indent=2) + "\n")
        write_atomically(self.feedback_dir / f"{stem}.md", feedback_markdown(result, self.course))
        self.results[key] = result
        self._unsaved = True
        self._answers_unsaved = self._answers_unsaved or _has_evidence(result) or earlier is not None
        if time.monotonic() >= self._grades_due:
            self.save()

    def _make_folder(self) -> None:
        if not self._folder_made:
            try:
                self.feedback_dir.mkdir(mode=0o750, parents=True, exist_ok=True)
            except OSError as error:
                raise KitError(f"{self.out}: cannot create the output folder: {error.strerror}") from None
            self._folder_made = True

    def save(self) -> None:
        """Write grades.csv (and the stamp that says this kit wrote it) unless it already holds every result:
        at the end of a run, and when one is interrupted."""
        if not self.results:  # nothing graded here yet: no gradebook to write
            return
        grades = self.grades_csv()
        if not self._unsaved and self._holds(grades):
            return
        write_atomically(self.out / GRADES, grades)
        write_atomically(self.out / STAMP, _digest(grades.encode("utf-8")) + "\n")
        if self._answers_unsaved:
            write_atomically(self.out / ANSWERS, json.dumps(_answers_record(self.results.values())) + "\n")
            self._answers_unsaved = False
        self._unsaved = False
        self._grades_due = time.monotonic() + GRADES_EVERY

    def _holds(self, grades: str) -> bool:
        try:
            return (self.out / GRADES).read_text(encoding="utf-8") == grades
        except (OSError, UnicodeDecodeError):
            return False

    def grades_csv(self) -> str:
        """`student,<exercise id>...,total,max_total`, one row per student, sorted by student.

        Each student's row is rendered once and kept (`_rows`): the file is written after every
        student, and rendering every row every time would cost a class of n students n² rows."""
        header = _csv_line(["student", *self.course.ids, "total", "max_total"])
        for key, result in self.results.items():
            if self._rows.get(key, (None,))[0] is not result:
                self._rows[key] = (result, self._row(result))
        return header + "".join(self._rows[key][1] for key in sorted(self.results))

    def _row(self, result: SubmissionResult) -> str:
        scores = [result.exercises[i].score if i in result.exercises else 0.0 for i in self.course.ids]
        return _csv_line([csv_cell(result.student), *(f"{s:g}" for s in scores), f"{sum(scores):g}",
                          f"{self.course.max_total:g}"])


def _csv_line(cells: list[str]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(cells)
    return buffer.getvalue()


def _read_result(path: Path) -> SubmissionResult | None:
    """A feedback record, or None for a damaged one (that student is simply graded again)."""
    try:
        return SubmissionResult.from_json(json.loads(path.read_text(encoding="utf-8")), str(path))
    except (OSError, ValueError, ResultError):
        return None


def _read_duplicates(path: Path) -> dict[str, list[str]]:
    """The last run's duplicate ids, or none for a missing or damaged file (the next run writes it anew)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): [str(n) for n in v] for k, v in data.items() if isinstance(v, list)}


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def broken_result(course: Course, student: str, problem: str, fingerprint: str = "") -> SubmissionResult:
    """Zeros on every check of every exercise, each saying why."""
    return SubmissionResult(student, zero_results(course, problem), problem=problem, fingerprint=fingerprint)


def _has_evidence(result: SubmissionResult) -> bool:
    return bool(result.code) or any(c.answer is not None for e in result.exercises.values() for c in e.checks)


def _answers_record(results: Iterable[SubmissionResult]) -> dict[str, Any]:
    """`{student: {"fingerprint", "code": {exercise: digest}, "answers": {exercise: {test: WrongAnswer}}}}`."""
    record: dict[str, Any] = {}
    for result in results:
        answers = {e_id: {c.test: c.answer.to_json() for c in e.checks if c.answer is not None}
                   for e_id, e in result.exercises.items()}
        answers = {e_id: tests for e_id, tests in answers.items() if tests}
        if answers or result.code:
            record[result.student] = {"fingerprint": result.fingerprint, "code": result.code, "answers": answers}
    return record


def _join_answers(path: Path, results: dict[str, SubmissionResult]) -> None:
    """Give each result read from disk its wrong answers' numbers and code digests, from `path`, while its
    fingerprint still matches (a damaged or missing file only leaves the report without them)."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if not isinstance(record, dict):
        return
    for student, entry in record.items():
        result = results.get(student_key(student))
        if result is None or not isinstance(entry, dict) or entry.get("fingerprint") != result.fingerprint:
            continue
        try:
            code = entry.get("code", {})
            result.code = {str(e): d for e, d in code.items() if isinstance(d, str)} if isinstance(code, dict) else {}
            for e_id, tests in dict(entry.get("answers", {})).items():
                for check in result.exercises[e_id].checks if e_id in result.exercises else []:
                    if check.test in tests:
                        check.answer = WrongAnswer.from_json(tests[check.test], f"{path}: {student}")
        except (ResultError, TypeError, ValueError, AttributeError):
            continue
