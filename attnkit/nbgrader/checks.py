"""What a notebook's test cell calls: one check of course.toml, graded by the kit.

A test cell holds only `run_check("softmax", "test_lesson_weights")`, so no
input of a hidden check is ever in a cell's source (nbgrader's feedback shows
hidden cells' source). The check runs as `attnkit grade` runs it: the
student's answer cells become the `exercises` package and the kit grades it
in its sandbox. Which package and which course depends on who runs the cell:

- `nbgrader autograde` (it sets NBGRADER_EXECUTION=autograde): the answer
  cells of the notebook being graded, read from disk by the same extraction
  as `attnkit grade`, against the full course that nbgrader_config.py names
  in ATTNKIT_COURSE (hidden checks and the reference);
- a student's own kernel: the answer cells as last run in this kernel,
  against the release's course.toml (public checks, recorded answers).

The first cell grades every exercise at once (one sandbox, one torch
import); later cells read the cached result while the code is unchanged.
Nothing is written to stderr: nbgrader zeroes a grade cell that writes there.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import os
import tempfile
import warnings
from pathlib import Path

from attnkit.config import Course, find_course_file, load_course
from attnkit.errors import KitError
from attnkit.grading.plugin import Submission
from attnkit.grading.results import CheckResult, SubmissionResult
from attnkit.nbgrader.answers import marked_exercise
from attnkit.nbgrader.extract import answer_cell_id, answer_sources, package_files, write_package

COURSE_VARIABLE = "ATTNKIT_COURSE"
SELF_CHECK_STUDENT = "you"

_graded: dict[str, SubmissionResult] = {}


class CheckFailedInNotebook(AssertionError):
    """A failed check, as the test cell's error: nbgrader gives the cell no points."""

    def _render_traceback_(self) -> list[str]:
        """IPython shows this instead of a traceback through the kit's code: the verdict is the message."""
        return [f"{type(self).__name__}: {self}"]


def run_check(exercise_id: str, test: str) -> None:
    """Grade one check of course.toml on this notebook's answers; raise AssertionError if it fails."""
    try:
        result = _grade()
        check = _find(result, exercise_id, test)
    except KitError as error:
        raise CheckFailedInNotebook(str(error)) from None
    print(check_report(exercise_id, check))
    if not check.passed:
        raise CheckFailedInNotebook(f"{exercise_id}: {check.name}: {check.mistake}") from None


def check_report(exercise_id: str, check: CheckResult) -> str:
    """What the cell prints: the verdict, and for a failure the mistake id, diagnosis and hint."""
    points = f"{check.points:g}/{check.max_points:g} point{'s' if check.max_points != 1 else ''}"
    if check.passed:
        return f"✓ {exercise_id}: {check.name} ({points})"
    lines = [f"✗ {exercise_id}: {check.name} ({points})", f"  mistake: {check.mistake}", f"  {check.message}"]
    return "\n".join(lines + ([f"  hint: {check.hint}"] if check.hint else []))


def _find(result: SubmissionResult, exercise_id: str, test: str) -> CheckResult:
    exercise = result.exercises.get(exercise_id)
    for check in exercise.checks if exercise else []:
        if check.test == test:
            return check
    raise KitError(f"{exercise_id}.{test} is not a check of this course.toml: hidden checks run only when "
                   f"nbgrader autogrades, from the course folder (whose nbgrader_config.py sets {COURSE_VARIABLE})")


def _grade() -> SubmissionResult:
    """This notebook's package graded by the kit, once for each version of the code."""
    course, student, files = _package_to_grade()
    digest = hashlib.sha256(repr((str(course.root), student, sorted(files.items()))).encode()).hexdigest()
    if digest not in _graded:
        _graded[digest] = grade_package(course, student, files)
    return _graded[digest]


def _package_to_grade() -> tuple[Course, str, dict[str, str]]:
    if os.environ.get("NBGRADER_EXECUTION") == "autograde":
        course = _course_from_environment()
        here = Path.cwd()  # nbgrader runs the kernel in autograded/<student>/<assignment>/
        return course, here.parent.name, package_files(answer_sources(here), course)
    course_file = os.environ.get(COURSE_VARIABLE)
    course = load_course(Path(course_file)) if course_file else load_course(find_course_file(Path.cwd()))
    return course, SELF_CHECK_STUDENT, package_files(kernel_answer_sources(), course)


def _course_from_environment() -> Course:
    course_file = os.environ.get(COURSE_VARIABLE)
    if not course_file:
        raise KitError(f"{COURSE_VARIABLE} is not set: run nbgrader in the course folder that "
                       "`attnkit nbgrader build` wrote (its nbgrader_config.py sets it)")
    return load_course(Path(course_file))


def kernel_answer_sources() -> dict[str, str]:
    """Answer cells as last run in this kernel, keyed like the notebook's grade ids."""
    from IPython import get_ipython

    shell = get_ipython()
    if shell is None:
        raise KitError("run_check works in a notebook: run the answer cells, then this cell")
    sources: dict[str, str] = {}
    for source in shell.history_manager.input_hist_raw:
        exercise_id = marked_exercise(source)
        if exercise_id:
            sources[answer_cell_id(exercise_id)] = source
    return sources


def grade_package(course: Course, student: str, files: dict[str, str]) -> SubmissionResult:
    """Every check of `course` on the package `files`, in the kit's sandbox, silently."""
    from attnkit.grading.session import run_checks

    with tempfile.TemporaryDirectory(prefix="attnkit-notebook-") as scratch:
        write_package(files, Path(scratch))
        with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
            warnings.simplefilter("ignore")
            [result] = run_checks(course, [Submission(student, Path(scratch))])
    return result
