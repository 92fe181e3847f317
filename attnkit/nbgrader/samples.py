"""A model student's notebook: the release with the reference's answers typed in.

What a student who solved everything would hand in, made from nbgrader's own
release and source, so the pipeline (autograde, feedback, export, and
`attnkit grade` on `submitted/`) can be tried before real students do. The
kit's tests and the benchmark start from it and edit single answers.
"""
from __future__ import annotations

from pathlib import Path

import nbformat

from attnkit.errors import KitError
from attnkit.nbgrader.answers import BEGIN, END


def grade_id(cell: nbformat.NotebookNode) -> str | None:
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")


def reference_answers(source_notebook: Path) -> dict[str | None, str]:
    """Answer cells of the instructor's notebook, by grade id, without the solution markers."""
    notebook = nbformat.read(source_notebook, as_version=4)
    return {
        grade_id(cell): "\n".join(line for line in cell.source.splitlines() if line.strip() not in (BEGIN, END))
        for cell in notebook.cells
        if cell.get("metadata", {}).get("nbgrader", {}).get("solution")
    }


def only_assignment(course_dir: Path) -> str:
    """The course folder's assignment (a folder of `source/`) when it has exactly one; else which it has."""
    source = Path(course_dir) / "source"
    names = sorted(p.name for p in source.iterdir() if p.is_dir()) if source.is_dir() else []
    if len(names) == 1:
        return names[0]
    if not names:
        raise KitError(f"{source}: no assignment here; run `attnkit nbgrader build --course-dir {course_dir}` first")
    raise KitError(f"{source}: {len(names)} assignments ({', '.join(names)}): pass --assignment")


def solved_notebook(course_dir: Path, assignment: str) -> nbformat.NotebookNode:
    """The released notebook of `assignment` with every answer cell holding the reference's answer."""
    name = f"{assignment}.ipynb"
    release = Path(course_dir) / "release" / assignment / name
    if not release.is_file():
        raise KitError(f"{release}: no released notebook; run `nbgrader generate_assignment {assignment}` first")
    answers = reference_answers(Path(course_dir) / "source" / assignment / name)
    notebook = nbformat.read(release, as_version=4)
    for cell in notebook.cells:
        if grade_id(cell) in answers:
            cell.source = answers[grade_id(cell)]
    return notebook
