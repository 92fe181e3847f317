"""What a notebook's test cell calls: one check of course.toml's verdict, printed.

A test cell holds only `run_check("softmax", "test_lesson_weights")`, so no
input of a hidden check is ever in a cell's source (nbgrader's feedback shows
hidden cells' source). Where the verdict comes from depends on who runs the cell:

- `nbgrader autograde`: the kit graded the notebook's answer cells, as
  nbgrader handed the notebook over and before any cell ran, outside this
  kernel (`attnkit.nbgrader.autograde`). This kernel only reads those verdicts
  from the file ATTNKIT_VERDICTS names; it knows no course and cannot change
  a grade, only what its own cells print;
- a student's own kernel (or `nbgrader validate`): the answer cells as last run
  in this kernel, graded by the kit in its sandbox against the nearest
  course.toml above the working folder: in the release, the public checks
  and their recorded answers. `nbgrader validate` of the source notebook, in
  a course folder inside the course repository, looks past the handout's
  course.toml to the full course.

In a student's kernel the first cell grades every exercise at once (one
sandbox, one torch import); later cells reuse that result while the code is
unchanged. Nothing is written to stderr: nbgrader zeroes a grade cell that
writes there.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import tempfile
import textwrap
import warnings
from pathlib import Path

from attnkit.config import Course, course_here, find_course_file, load_course
from attnkit.errors import KitError
from attnkit.grading.results import CheckResult, SubmissionResult
from attnkit.nbgrader.answers import marked_exercise
from attnkit.nbgrader.extract import answer_cell_id, package_files, write_package

REPORT_WIDTH = 100  # columns of a test cell's verdict: nbgrader's feedback page never wraps a cell's output

VERDICTS_VARIABLE = "ATTNKIT_VERDICTS"
SELF_CHECK_STUDENT = "you"

_graded: dict[str, SubmissionResult] = {}


class CheckFailedInNotebook(AssertionError):
    """A failed check, as the test cell's error: nbgrader gives the cell no points."""

    def _render_traceback_(self) -> list[str]:
        """IPython shows this instead of a traceback through the kit's code: the verdict is the message."""
        return [f"{type(self).__name__}: {self}"]


def run_check(exercise_id: str, test: str) -> None:
    """Print one check's verdict on this notebook's answers; raise AssertionError if it failed."""
    try:
        result = _verdicts() if os.environ.get(VERDICTS_VARIABLE) else _self_check()
        check = _find(result, exercise_id, test)
    except KitError as error:
        raise CheckFailedInNotebook(str(error)) from None
    print(check_report(exercise_id, check))
    if not check.passed:
        raise CheckFailedInNotebook(f"{exercise_id}: {check.name}: {check.mistake}") from None


def check_report(exercise_id: str, check: CheckResult) -> str:
    """What the cell prints: the verdict, and for a failure the mistake id, diagnosis and hint.

    Wrapped at `REPORT_WIDTH` columns: nbgrader's feedback page shows a cell's output as preformatted
    text, which a browser never wraps, so a diagnosis printed as one line ran off the page."""
    points = f"{check.points:g}/{check.max_points:g} point{'s' if check.max_points != 1 else ''}"
    if check.passed:
        return _wrapped(f"✓ {exercise_id}: {check.name} ({points})", "  ")
    lines = [f"✗ {exercise_id}: {check.name} ({points})", f"  mistake: {check.mistake}", f"  {check.message}"]
    lines = [_wrapped(line, "    ") for line in lines + ([f"  hint: {check.hint}"] if check.hint else [])]
    if check.location is not None:  # the student's line of code is kept whole
        lines.insert(-1 if check.hint else len(lines), f"  where: {check.location.describe()}")
    return "\n".join(lines)


def _wrapped(text: str, indent: str) -> str:
    """Each line of `text` wrapped, its continuation lines indented; the text's own line breaks kept."""
    return "\n".join("\n".join(textwrap.wrap(line, REPORT_WIDTH, subsequent_indent=indent, break_on_hyphens=False,
                                             break_long_words=False)) or line for line in text.split("\n"))


def write_verdicts(result: SubmissionResult, path: Path) -> None:
    """The kit's grade of a notebook, for its kernel to read (the feedback record's one JSON form)."""
    Path(path).write_text(json.dumps(result.to_json()), encoding="utf-8")


def read_verdicts(path: Path) -> SubmissionResult:
    try:
        return SubmissionResult.from_json(json.loads(Path(path).read_text(encoding="utf-8")), str(path))
    except (OSError, ValueError) as error:
        raise KitError(f"{path}: cannot read the kit's verdicts: {error}") from None


def _verdicts() -> SubmissionResult:
    return read_verdicts(Path(os.environ[VERDICTS_VARIABLE]))


def _find(result: SubmissionResult, exercise_id: str, test: str) -> CheckResult:
    exercise = result.exercises.get(exercise_id)
    for check in exercise.checks if exercise else []:
        if check.test == test:
            return check
    raise KitError(f"{exercise_id}.{test} is not a check of this course.toml: hidden checks run only when "
                   "nbgrader autogrades, with the nbgrader_config.py that `attnkit nbgrader build` wrote")


def _self_check() -> SubmissionResult:
    """This kernel's answer cells graded by the kit, once for each version of the code."""
    if os.environ.get("NBGRADER_EXECUTION") == "autograde":
        raise KitError("nbgrader autograde ran without the kit's grading: this course folder's nbgrader_config.py "
                       "is older than the kit; rebuild it with `attnkit nbgrader build --force`")
    course = _course_to_check()
    files = package_files(kernel_answer_sources(), course)
    digest = hashlib.sha256(repr((str(course.root), sorted(files.items()))).encode()).hexdigest()
    if digest not in _graded:
        _graded[digest] = grade_package(course, SELF_CHECK_STUDENT, files)
    return _graded[digest]


def _course_to_check() -> Course:
    """The nearest course.toml above; under `nbgrader validate`, the full course above a handout's, if any.

    In nbgrader's `source/<assignment>/` (or a release) the nearest course.toml is
    the handout's (public checks only); an instructor validating the source
    notebook inside the course repository means the whole course above it.
    """
    nearest = course_here()
    if os.environ.get("NBGRADER_EXECUTION") != "validate" or nearest.solutions_dir.is_dir():
        return nearest
    try:
        above = load_course(find_course_file(nearest.root.parent))
    except KitError:
        return nearest
    return above if above.solutions_dir.is_dir() else nearest


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
    from attnkit.grading.plugin import Submission
    from attnkit.grading.session import run_checks

    with tempfile.TemporaryDirectory(prefix="attnkit-notebook-") as scratch:
        write_package(files, Path(scratch))
        with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
            warnings.simplefilter("ignore")
            [result] = run_checks(course, [Submission(student, Path(scratch))])
    return result
