"""A complete nbgrader course folder, written from the kit's registry.

    <course-dir>/nbgrader_config.py
    <course-dir>/source/<assignment>/<assignment>.ipynb     the instructor's notebook
    <course-dir>/source/<assignment>/course.toml, checks/   the public checks and their
                                                            recorded answers (the handout's)

The supporting files go to students unchanged in the release, so they hold
what `attnkit handout` gives students and nothing more: public checks, the
answers recorded from the reference on the lesson's inputs, the catalogue's
words without its variants. They let a student's notebook check itself.
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

import nbformat

from attnkit.config import Course
from attnkit.errors import KitError
from attnkit.handout import CHECKS, write_handout
from attnkit.nbgrader import TIMEOUT_MARGIN
from attnkit.nbgrader.answers import CODE_STUB
from attnkit.nbgrader.notebooks import build_notebook

CONFIG = "nbgrader_config.py"
SOURCE = "source"


def slug(text: str, separator: str) -> str:
    """A name nbgrader accepts (letters, digits, `_`, `-`), from a course or lesson title."""
    return re.sub(r"[^a-z0-9]+", separator, text.lower()).strip(separator) or "course"


def default_timeout(course: Course) -> int:
    """Long enough for an answer cell: the student's top-level code, which may import torch.

    The kit grades before any cell runs and test cells only print its
    verdicts, so a cell needs the margin and at most the kit's own per-call
    limit for the student's code.
    """
    return int(TIMEOUT_MARGIN + course.settings.call_timeout)


def build_course(course: Course, course_dir: Path, *, assignment: str | None = None, course_id: str | None = None,
                 timeout: int | None = None, force: bool = False) -> Path:
    """Write the nbgrader course for `course` into `course_dir`; return the assignment's source folder."""
    course_dir = Path(course_dir)
    assignment = assignment or slug(course.lesson, "_")
    if not re.fullmatch(r"[A-Za-z0-9_-]+", assignment):
        raise KitError(f"--assignment {assignment!r}: use letters, digits, '_' or '-'")
    source = course_dir / SOURCE / assignment
    config = course_dir / CONFIG
    existing = [p for p in (config, source) if p.exists()]
    if existing and not force:
        raise KitError(f"{existing[0]}: already exists; pass --force to rebuild it from the registry")
    notebook = build_notebook(course)
    with tempfile.TemporaryDirectory(prefix="attnkit-nbgrader-") as scratch:
        handout = write_handout(course, Path(scratch) / "handout")
        if source.exists():
            shutil.rmtree(source)
        source.mkdir(parents=True)
        shutil.copy(handout / "course.toml", source / "course.toml")
        shutil.copytree(handout / CHECKS, source / CHECKS)
    nbformat.write(notebook, source / f"{assignment}.ipynb")
    config.write_text(config_text(course, course_dir, course_id or slug(course.name, "-"),
                                  timeout or default_timeout(course)), encoding="utf-8")
    return source


def config_text(course: Course, course_dir: Path, course_id: str, timeout: int) -> str:
    course_file = os.path.relpath(course.file.resolve(), course_dir.resolve())
    return f'''"""nbgrader's configuration for this course, written by `attnkit nbgrader build`.

Rebuild rather than edit: `attnkit nbgrader build --course-dir <this folder> --force`
in the course repository.
"""
import os

from attnkit.nbgrader.autograde import autograde_preprocessors
from attnkit.nbgrader.release import release_preprocessors

c = get_config()  # noqa: F821 (nbgrader defines get_config)

c.CourseDirectory.course_id = {course_id!r}

# At autograde the kit grades each notebook's answer cells, as nbgrader hands the
# notebook over and before any cell runs, in its sandbox against the full course
# (hidden checks, reference): the course.toml named here, relative to this file, so
# the folder may move with the course repository. Then the kernel runs the notebook
# confined: its test cells only print the kit's verdicts, and its cells can reach
# neither the course nor submitted/. See attnkit/nbgrader/autograde.py.
c.KitExecute.course = os.path.join(os.path.dirname(os.path.abspath(__file__)), {course_file!r})
c.Autograde.autograde_preprocessors = autograde_preprocessors()
# Where kernels cannot be confined (namespaces refused: a container), autograde refuses,
# since a cell would run as this user and could read the course; True accepts that risk.
c.KitExecute.unisolated = False

# Seconds a cell may run before nbgrader interrupts it: an answer cell runs the
# student's top-level code (and imports torch); an answer cell that loops forever
# is cut off after this long and the rest still runs.
c.Execute.timeout = {timeout}

# A test cell a student deleted comes back at autograde (and earns nothing unless
# the answer passes it); edited ones are always restored from the gradebook.
c.OverwriteCells.add_missing_cells = True

# What replaces the code between the solution markers in the release, inside a function;
# at the top level of a cell the release keeps the given values and raises nothing.
c.GenerateAssignment.preprocessors = release_preprocessors()
c.ClearSolutions.code_stub = {{"python": {CODE_STUB!r}}}
'''
