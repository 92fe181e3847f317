"""The assignment notebook, cell by cell, from the registry and the single sources.

One notebook holds every exercise, in course.toml's order, as the lesson
builds them: a later answer calls the functions of earlier cells (attention
calls softmax), as the package's modules import each other. Each exercise is

- a read-only markdown task: its title from course.toml and its stub's module
  docstring, which quotes and names the lesson's sections (the lesson itself
  is not part of this repository; the stubs are the kit's words for the task,
  so the notebook and the `attnkit handout` read the same);
- an answer cell (`answers.answer_cell_source`);
- one autograded test cell a check of course.toml, with its points: public
  checks visible, hidden ones between nbgrader's hidden-test markers, each
  calling `attnkit.nbgrader.checks.run_check` so no input is in the cell.

A new exercise in course.toml gets its cells with no code here.
"""
from __future__ import annotations

import ast
import re

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from attnkit.config import Check, Course, Exercise, check_names
from attnkit.errors import KitError
from attnkit.nbgrader.answers import MARKER, answer_cell_source
from attnkit.nbgrader.extract import answer_cell_id

SCHEMA_VERSION = 3
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
BEGIN_HIDDEN, END_HIDDEN = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
CHECK_CALL = 'from attnkit.nbgrader.checks import run_check\nrun_check("{exercise}", "{test}")'
SELF_CHECK_HINT = re.compile(r"\s*Check it with\s+`attnkit\s+check[\w\s]*`\.")


def build_notebook(course: Course) -> nbformat.NotebookNode:
    """The instructor's notebook (nbgrader's source version)."""
    notebook = new_notebook(metadata={"kernelspec": KERNELSPEC, "language_info": {"name": "python"}})
    notebook.cells.append(_markdown("intro", intro_text(course)))
    for number, exercise in enumerate(course.exercises, 1):
        notebook.cells += exercise_cells(course, exercise, number)
    return notebook


def exercise_cells(course: Course, exercise: Exercise, number: int) -> list[nbformat.NotebookNode]:
    stub = _read(course.exercises_dir / f"{exercise.module}.py")
    solution = _read(course.solutions_dir / f"{exercise.module}.py")
    names = check_names(course.grader_file(exercise))
    answer = new_code_cell(answer_cell_source(exercise.id, stub, solution))
    answer.metadata["nbgrader"] = _nbgrader(answer_cell_id(exercise.id), solution=True, locked=False)
    return [
        _markdown(f"{exercise.id}-task", task_text(exercise, number, stub)),
        answer,
        *(_check_cell(exercise, check, names.get(check.test, check.test)) for check in exercise.checks),
    ]


def intro_text(course: Course) -> str:
    return f"""# {course.lesson}: exercises

*{course.name}.* One section an exercise, in the order the lesson builds them. In each:

1. read the task, then write your code in its **answer cell**, where `raise NotImplementedError()`
   stands. Keep the cell's first line (`{MARKER.format(exercise="...")}`): the checks find your
   answer by it. Later answers use your earlier functions (attention calls your softmax), so run
   the cells from the top.
2. run the **check cells** below it, one per check, with its points. A failed check prints the mistake
   the kit recognised, what it means in the lesson's terms, and a hint.

The visible checks are the public ones, on the lesson's own numbers. Empty check cells are hidden
checks: they run when your work is graded, on fresh inputs. Passing every visible check is a good
sign, not a guarantee."""


def task_text(exercise: Exercise, number: int, stub: str) -> str:
    """Title, the stub's account of the task (minus the CLI self-check line), the points."""
    docstring = ast.get_docstring(ast.parse(stub)) or ""
    body = SELF_CHECK_HINT.sub("", "\n".join(docstring.splitlines()[1:])).strip()
    public = len(exercise.public_checks)
    hidden = len(exercise.checks) - public
    points = f"{exercise.points:g} point{'s' if exercise.points != 1 else ''}"
    return (f"## {number}. {exercise.title}\n\n{body}\n\n"
            f"*{points}: {public} visible check{'s' * (public != 1)} and {hidden} hidden below the answer cell.*")


def check_cell_source(exercise: Exercise, check: Check, name: str) -> str:
    call = CHECK_CALL.format(exercise=exercise.id, test=check.test)
    points = f"{check.points:g} point{'s' if check.points != 1 else ''}"
    if check.public:
        return f"# Check ({points}): {name}\n{call}"
    return (f"# Hidden check ({points}): runs when your work is graded.\n"
            f"{BEGIN_HIDDEN}\n# {name}\n{call}\n{END_HIDDEN}")


def check_cell_id(exercise: Exercise, check: Check) -> str:
    return f"{exercise.id}-{check.test}"


def _check_cell(exercise: Exercise, check: Check, name: str) -> nbformat.NotebookNode:
    cell = new_code_cell(check_cell_source(exercise, check, name))
    cell.metadata["nbgrader"] = _nbgrader(check_cell_id(exercise, check), grade=True, points=check.points)
    return cell


def _markdown(grade_id: str, text: str) -> nbformat.NotebookNode:
    cell = new_markdown_cell(text)
    cell.metadata["nbgrader"] = _nbgrader(grade_id)
    return cell


def _nbgrader(grade_id: str, *, grade: bool = False, solution: bool = False, locked: bool = True,
              points: float | None = None) -> dict:
    """nbgrader's cell metadata, schema version 3: read-only, answer or autograder test cell."""
    metadata = {"schema_version": SCHEMA_VERSION, "grade": grade, "solution": solution, "locked": locked,
                "grade_id": grade_id}
    if points is not None:
        metadata["points"] = points
    return metadata


def _read(path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise KitError(f"{path}: cannot read: {error.strerror}") from None
