"""nbgrader submissions as the kit's `exercises` package.

nbgrader keeps a student's work as `submitted/<student>/<assignment>/*.ipynb`.
The kit grades a package, so each answer cell, found by its nbgrader grade id
(as nbgrader itself finds it), becomes that exercise's module. At autograde
the kit grades the package made here from the notebook nbgrader is about to
run (`autograde`), and `attnkit grade` grades the same package from
`submitted/` (through `NotebookReader`, the intake's reader for this layout):
one extraction, so both give the same scores.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attnkit.config import PACKAGE, Course
from attnkit.errors import KitError
from attnkit.nbgrader.answers import module_source

if TYPE_CHECKING:
    from nbformat import NotebookNode

MAX_NOTEBOOK_BYTES = 16 << 20
PACKAGE_INIT = Path(__file__).with_name("notebook_package.py")
MISSING_CELL = ('raise ImportError("no answer cell for {exercise} (grade id {grade_id}): '
                'in a submission it was deleted; '
                'in a notebook, run the cell starting # attnkit exercise: {exercise}")\n')


def answer_cell_id(exercise_id: str) -> str:
    """The nbgrader grade id of an exercise's answer cell."""
    return f"{exercise_id}-answer"


def notebooks(assignment_dir: Path) -> list[Path]:
    """The assignment's notebooks, or a one-line reason there are none."""
    found = sorted(p for p in Path(assignment_dir).glob("*.ipynb") if p.is_file() and not p.is_symlink())
    if not found:
        raise KitError(f"{assignment_dir}: no notebook (.ipynb) in this nbgrader submission")
    return found


def read_notebook(path: Path) -> NotebookNode:
    """One notebook, or a KitError naming it."""
    import nbformat  # here, not above: recognising a submission must not cost its import

    if path.stat().st_size > MAX_NOTEBOOK_BYTES:
        raise KitError(f"{path}: larger than {MAX_NOTEBOOK_BYTES >> 20} MiB")
    try:
        return nbformat.read(path, as_version=4)
    except Exception as error:  # nbformat raises JSON, schema and Unicode errors alike
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise KitError(f"{path}: not a readable notebook: {reason}") from None


def answer_sources(assignment_dir: Path) -> dict[str, str]:
    """Answer cells' sources by grade id over the folder's notebooks; the first of duplicated ids wins,
    as in nbgrader."""
    sources: dict[str, str] = {}
    for path in notebooks(assignment_dir):
        for grade_id, source in notebook_answer_sources(read_notebook(path)).items():
            sources.setdefault(grade_id, source)
    return sources


def notebook_answer_sources(notebook: Any) -> dict[str, str]:
    """One notebook's code cells that carry an nbgrader grade id, by that id (the first of duplicates)."""
    sources: dict[str, str] = {}
    for cell in notebook.get("cells", []):
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if cell.get("cell_type") == "code" and isinstance(grade_id, str):
            sources.setdefault(grade_id, cell.get("source", ""))
    return sources


def package_files(sources: dict[str, str], course: Course) -> dict[str, str]:
    """The package's files from answer cells keyed by grade id (`<exercise>-answer`).

    Each module sees the names of every earlier exercise's module in the
    course's order, as its cell saw the cells above it: a helper defined in an
    earlier cell works even where course.toml declares no dependency.
    """
    files = {"__init__.py": PACKAGE_INIT.read_text(encoding="utf-8")}
    for position, exercise in enumerate(course.exercises):
        grade_id = answer_cell_id(exercise.id)
        required = [course.exercise(d).module for d in course.dependencies(exercise.id)]
        earlier = [e.module for e in course.exercises[:position]]  # course.toml lists dependencies first
        source = sources.get(grade_id)
        files[f"{exercise.module}.py"] = (module_source(source, earlier, required) if source is not None
                                          else MISSING_CELL.format(exercise=exercise.id, grade_id=grade_id))
    return files


def write_package(files: dict[str, str], target_root: Path) -> Path:
    package = Path(target_root) / PACKAGE
    package.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (package / name).write_text(text, encoding="utf-8")
    return package


def extract_exercises(assignment_dir: Path, target_root: Path, course: Course) -> None:
    """Write `target_root/exercises/` from the answer cells of the notebooks in `assignment_dir`."""
    write_package(package_files(answer_sources(assignment_dir), course), target_root)


def find_assignment_dir(student_dir: Path) -> Path | None:
    """The folder holding a student's notebooks: the folder itself or its one assignment folder."""
    student_dir = Path(student_dir)
    if not student_dir.is_dir() or (student_dir / PACKAGE).is_dir():
        return None
    if any(student_dir.glob("*.ipynb")):
        return student_dir
    inner = [p for p in sorted(student_dir.iterdir()) if p.is_dir() and not p.is_symlink() and any(p.glob("*.ipynb"))]
    return inner[0] if len(inner) == 1 else None


def is_nbgrader_submission(student_dir: Path) -> bool:
    """Whether `student_dir` is nbgrader's `submitted/<student>/` (notebooks, no `exercises/`)."""
    return find_assignment_dir(student_dir) is not None


@dataclass(frozen=True)
class NotebookReader:
    """nbgrader's layout for the kit's intake: a student's notebooks read as their `exercises` package.

    Core intake knows no notebook: `attnkit grade` hands it this reader, and
    intake asks it whether it recognises a submission folder and, if so, for
    the package's files (which intake then checks like any other).
    """

    course: Course

    def recognises(self, folder: Path) -> bool:
        return is_nbgrader_submission(folder)

    def read(self, folder: Path) -> dict[str, bytes]:
        assignment_dir = find_assignment_dir(folder)
        assert assignment_dir is not None  # read only once recognised
        files = package_files(answer_sources(assignment_dir), self.course)
        return {name: text.encode("utf-8") for name, text in files.items()}
