"""The exercises as a real nbgrader assignment, round-tripped by nbgrader's own commands.

One module fixture does what an instructor does: `attnkit nbgrader build`,
`nbgrader generate_assignment`, four students' notebooks placed in
`submitted/`, `nbgrader autograde`, `nbgrader generate_feedback` and
`nbgrader export`; `attnkit grade` then grades the same `submitted/` folder. The
students are made from the release with the reference's answers typed in:

- alice: every answer right;
- bob: softmax with a catalogued mistake (the variant's own edit);
- carol: softmax left as released, one of its test cells edited to print
  "ok" and another deleted;
- dave: every answer right, but his cake cell loops forever after its work.

The fast tests at the end pin the extraction and the notebook's make-up.
"""
from __future__ import annotations

import ast
import csv
import json
import os
import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from attnkit.errors import KitError
from attnkit.nbgrader.answers import BEGIN, END, answer_cell_source, module_source
from attnkit.nbgrader.build import build_course
from attnkit.nbgrader.extract import extract_exercises, is_nbgrader_submission
from attnkit.nbgrader.notebooks import BEGIN_HIDDEN, build_notebook, check_cell_id
from attnkit.nbgrader.samples import grade_id, solved_notebook
from kit import CATALOGUE, COURSE, REPO

ASSIGNMENT = "self_attention"
NOTEBOOK = f"{ASSIGNMENT}.ipynb"
TIMEOUT = 30  # seconds a cell may run at autograde: the first check cell takes 5-16 s here; dave waits this long
MISTAKE = "softmax-wrong-dim"
EDITED_CELL, DELETED_CELL = (check_cell_id(COURSE.exercise("softmax"), c) for c in COURSE.exercise("softmax").public_checks)
LOOPING_EXERCISE = "cake"
STUDENTS = ["alice", "bob", "carol", "dave"]
# Exercises a student must lose points on; every other exercise earns full marks.
LOSES = {
    "alice": set(),
    "bob": {"softmax", *[e.id for e in COURSE.exercises if "softmax" in COURSE.dependencies(e.id)]},
    "carol": {"softmax", *[e.id for e in COURSE.exercises if "softmax" in COURSE.dependencies(e.id)]},
    "dave": {LOOPING_EXERCISE},
}


def answer(notebook: nbformat.NotebookNode, exercise_id: str) -> nbformat.NotebookNode:
    return next(c for c in notebook.cells if grade_id(c) == f"{exercise_id}-answer")


def with_mistake(notebook: nbformat.NotebookNode) -> None:
    cell = answer(notebook, "softmax")
    for old, new in CATALOGUE[MISTAKE].variants[0].edits:
        assert old in cell.source
        cell.source = cell.source.replace(old, new)


def edits_test_cells(notebook: nbformat.NotebookNode, release: nbformat.NotebookNode) -> None:
    answer(notebook, "softmax").source = answer(release, "softmax").source
    next(c for c in notebook.cells if grade_id(c) == EDITED_CELL).source = 'print("ok")'
    notebook.cells = [c for c in notebook.cells if grade_id(c) != DELETED_CELL]


def loops_forever(notebook: nbformat.NotebookNode) -> None:
    answer(notebook, LOOPING_EXERCISE).source += "\nwhile True:\n    pass\n"


def run(*command: str, cwd: Path) -> subprocess.CompletedProcess:
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, f"{command}: {result.stderr[-3000:]}"
    return result


def place_students(course_dir: Path) -> None:
    release = nbformat.read(course_dir / "release" / ASSIGNMENT / NOTEBOOK, as_version=4)
    edits = {"alice": lambda nb: None, "bob": with_mistake, "carol": lambda nb: edits_test_cells(nb, release),
             "dave": loops_forever}
    for student in STUDENTS:
        notebook = solved_notebook(course_dir, ASSIGNMENT)
        edits[student](notebook)
        folder = course_dir / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        nbformat.write(notebook, folder / NOTEBOOK)


@pytest.fixture(scope="module")
def course_dir(tmp_path_factory) -> Path:
    """A course taken through build, generate_assignment, autograde, generate_feedback and export."""
    course_dir = tmp_path_factory.mktemp("nbgrader") / "course"
    run("attnkit", "nbgrader", "build", "--course-dir", str(course_dir), "--timeout", str(TIMEOUT), cwd=REPO)
    run("nbgrader", "generate_assignment", ASSIGNMENT, cwd=course_dir)
    place_students(course_dir)
    run("nbgrader", "autograde", ASSIGNMENT, cwd=course_dir)
    run("nbgrader", "generate_feedback", ASSIGNMENT, cwd=course_dir)
    run("nbgrader", "export", cwd=course_dir)
    return course_dir


@pytest.fixture(scope="module")
def nbgrader_scores(course_dir) -> dict[str, dict[str, float]]:
    """Per student, per exercise: the points of nbgrader's gradebook, summed over the exercise's cells."""
    from nbgrader.api import Gradebook

    cells = {check_cell_id(e, c): e.id for e in COURSE.exercises for c in e.checks}
    scores: dict[str, dict[str, float]] = {}
    with Gradebook(f"sqlite:///{course_dir / 'gradebook.db'}") as gradebook:
        for student in STUDENTS:
            notebook = gradebook.find_submission_notebook(ASSIGNMENT, ASSIGNMENT, student)
            per_exercise = dict.fromkeys(COURSE.ids, 0.0)
            for grade in notebook.grades:
                per_exercise[cells[grade.name]] += grade.score
            scores[student] = per_exercise
    return scores


@pytest.fixture(scope="module")
def kit_scores(course_dir, tmp_path_factory) -> dict[str, dict[str, float]]:
    """Per student, per exercise: `attnkit grade` on the same `submitted/` folder."""
    out = tmp_path_factory.mktemp("attnkit-grades")
    run("attnkit", "grade", str(course_dir / "submitted"), "--out", str(out), cwd=REPO)
    records = {s: json.loads((out / "feedback" / f"{s}.json").read_text()) for s in STUDENTS}
    return {s: {e: x["score"] for e, x in r["exercises"].items()} for s, r in records.items()}


def exported(course_dir: Path) -> dict[str, dict[str, str]]:
    with open(course_dir / "grades.csv", newline="") as stream:
        return {row["student_id"]: row for row in csv.DictReader(stream)}


def autograded(course_dir: Path, student: str) -> nbformat.NotebookNode:
    return nbformat.read(course_dir / "autograded" / student / ASSIGNMENT / NOTEBOOK, as_version=4)


def cell_text(cell: nbformat.NotebookNode) -> str:
    parts = []
    for output in cell.get("outputs", []):
        parts += [output.get("text", ""), output.get("ename", ""), output.get("evalue", "")]
    return "\n".join(parts)


# --- the release ----------------------------------------------------------------


@pytest.mark.slow
def test_release_holds_no_solution(course_dir):
    source = nbformat.read(course_dir / "source" / ASSIGNMENT / NOTEBOOK, as_version=4)
    release = (course_dir / "release" / ASSIGNMENT / NOTEBOOK).read_text()
    solution_lines = set()
    for cell in source.cells:
        inside = False
        for line in cell.source.splitlines():
            inside = (inside or line.strip() == BEGIN) and line.strip() != END
            if inside and line.strip() and not line.strip().startswith("#"):
                solution_lines.add(line.strip())
    assert solution_lines
    assert [line for line in solution_lines if line in release] == []


@pytest.mark.slow
def test_release_holds_no_hidden_check(course_dir):
    """No hidden check's call or grader code in any released file (grade ids may name them)."""
    hidden = [c.test for e in COURSE.exercises for c in e.checks if not c.public]
    folder = course_dir / "release" / ASSIGNMENT
    texts = {p: p.read_text(encoding="utf-8") for p in folder.rglob("*") if p.is_file() and p.suffix != ".ipynb"}
    texts[folder / NOTEBOOK] = "\n".join(c.source for c in nbformat.read(folder / NOTEBOOK, as_version=4).cells)
    leaks = [(p.name, t) for p, text in texts.items() for t in hidden if t in text]
    assert leaks == []
    assert BEGIN_HIDDEN not in texts[folder / NOTEBOOK]


# --- nbgrader's grades ------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("student", STUDENTS)
def test_exported_score_is_the_sum_of_the_exercises(course_dir, nbgrader_scores, student):
    row = exported(course_dir)[student]
    assert float(row["score"]) == pytest.approx(sum(nbgrader_scores[student].values()))
    assert float(row["max_score"]) == COURSE.max_total


@pytest.mark.slow
@pytest.mark.parametrize("student", STUDENTS)
def test_exercises_lose_points_exactly_where_the_answer_is_wrong(nbgrader_scores, student):
    full = {e.id: e.points for e in COURSE.exercises}
    losing = {e for e, score in nbgrader_scores[student].items() if score < full[e]}
    assert losing == LOSES[student]


@pytest.mark.slow
@pytest.mark.parametrize("student", STUDENTS)
def test_nbgrader_and_the_kit_give_the_same_exercise_scores(nbgrader_scores, kit_scores, student):
    assert nbgrader_scores[student] == kit_scores[student]


@pytest.mark.slow
@pytest.mark.parametrize("cell_id", [EDITED_CELL, DELETED_CELL])
def test_edited_or_deleted_test_cell_earns_nothing(course_dir, nbgrader_scores, cell_id):
    cell = next(c for c in autograded(course_dir, "carol").cells if grade_id(c) == cell_id)
    assert "run_check(" in cell.source
    assert "not-implemented" in cell_text(cell)
    assert nbgrader_scores["carol"]["softmax"] == 0


@pytest.mark.slow
def test_looping_cell_is_cut_off_and_the_rest_graded(course_dir, nbgrader_scores):
    looping = answer(autograded(course_dir, "dave"), LOOPING_EXERCISE)
    assert "CellTimeoutError" in cell_text(looping)
    assert nbgrader_scores["dave"][LOOPING_EXERCISE] == 0
    assert set(exported(course_dir)) == set(STUDENTS)


@pytest.mark.slow
def test_feedback_names_the_mistake_and_its_hint(course_dir):
    page = (course_dir / "feedback" / "bob" / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text()
    assert MISTAKE in page
    assert "hint:" in page


@pytest.mark.slow
def test_self_check_runs_in_the_students_notebook(course_dir, tmp_path):
    """The release alone (no course repo, no nbgrader): bob's public check cells explain his mistake."""
    folder = shutil.copytree(course_dir / "release" / ASSIGNMENT, tmp_path / ASSIGNMENT)
    notebook = nbformat.read(course_dir / "submitted" / "bob" / ASSIGNMENT / NOTEBOOK, as_version=4)
    env = {k: v for k, v in os.environ.items() if k not in ("ATTNKIT_COURSE", "NBGRADER_EXECUTION")}
    client = NotebookClient(notebook, timeout=TIMEOUT, allow_errors=True, kernel_name="python3",
                            resources={"metadata": {"path": str(folder)}})
    client.execute(env=env)  # passed on to the kernel's start
    softmax = next(c for c in notebook.cells if grade_id(c) == EDITED_CELL)
    assert MISTAKE in cell_text(softmax) and "hint:" in cell_text(softmax)
    scores = next(c for c in notebook.cells if grade_id(c) == check_cell_id(COURSE.exercise("scaled_scores"),
                                                                           COURSE.exercise("scaled_scores").checks[0]))
    assert "✓" in cell_text(scores)


# --- fast: the notebook's make-up and the extraction -------------------------------


@pytest.fixture(scope="module")
def notebook() -> nbformat.NotebookNode:
    return build_notebook(COURSE)


@pytest.mark.parametrize("exercise", COURSE.exercises, ids=COURSE.ids)
def test_each_exercise_has_an_answer_cell_and_one_test_cell_a_check(notebook, exercise):
    cells = {grade_id(c): c for c in notebook.cells}
    assert cells[f"{exercise.id}-answer"].metadata.nbgrader["solution"] is True
    for check in exercise.checks:
        cell = cells[check_cell_id(exercise, check)]
        flags = cell.metadata.nbgrader
        assert (flags["grade"], flags["solution"], flags["locked"], flags["points"]) == (True, False, True, check.points)
        assert (BEGIN_HIDDEN in cell.source) is not check.public
        assert f'run_check("{exercise.id}", "{check.test}")' in cell.source


@pytest.mark.parametrize("exercise", COURSE.exercises, ids=COURSE.ids)
def test_answer_cell_extracts_to_a_module_defining_the_reference_names(notebook, exercise, tmp_path):
    folder = tmp_path / "submitted"
    folder.mkdir()
    nbformat.write(notebook, folder / NOTEBOOK)
    extract_exercises(folder, tmp_path, COURSE)
    module = (tmp_path / "exercises" / f"{exercise.module}.py").read_text()
    defined = {getattr(n, "name", None) or ast.unparse(n.targets[0]) for n in ast.parse(module).body
               if isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.Assign))}
    reference = ast.parse((COURSE.solutions_dir / f"{exercise.module}.py").read_text())
    assert {getattr(n, "name", None) or ast.unparse(n.targets[0]) for n in reference.body
            if isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.Assign))} <= defined


def test_answer_cell_keeps_the_stubs_words_and_marks_the_references_code():
    stub = '"""Exercise x."""\nimport torch\n\n\ndef f(a,\n      b):\n    # TODO(x): add\n    raise NotImplementedError\n\n\nX = 1\n'
    reference = "import math\nimport torch\n\n\ndef f(a,\n      b):\n    return a + b\n\n\nX = 2\n"
    cell = answer_cell_source("x", stub, reference).splitlines()
    assert cell[:3] == ["# attnkit exercise: x", "import torch", "import math"]
    assert cell[5:11] == ["def f(a,", "      b):", "    # TODO(x): add", f"    {BEGIN}", "    return a + b", f"    {END}"]
    assert cell[-4:] == ["# As handed out: X = 1", BEGIN, "X = 2", END]


def test_module_keeps_the_cells_line_numbers():
    cell = "# attnkit exercise: attention\nimport torch\n\n\ndef attention(Q, K, V):\n    raise ValueError\n"
    module = module_source(cell, ["softmax", "scaled_scores"])
    assert module.splitlines()[1:] == cell.splitlines()[1:]
    assert module.startswith("from .softmax import *; from .scaled_scores import *")


def test_ipython_magic_lines_become_pass_on_the_same_line():
    module = module_source("# attnkit exercise: softmax\n%matplotlib inline\nimport torch\n", [])
    assert module.splitlines() == ["# attnkit exercise: softmax", "pass  # %matplotlib inline", "import torch"]


def test_broken_notebook_is_refused_naming_the_file(tmp_path):
    (tmp_path / NOTEBOOK).write_text("{ not json")
    with pytest.raises(KitError, match=NOTEBOOK):
        extract_exercises(tmp_path, tmp_path / "out", COURSE)


def test_folder_without_notebook_is_refused(tmp_path):
    with pytest.raises(KitError, match="no notebook"):
        extract_exercises(tmp_path, tmp_path / "out", COURSE)


@pytest.mark.parametrize("layout,expected", [
    ("submitted/alice/self_attention/self_attention.ipynb", True),
    ("submitted/alice/self_attention.ipynb", True),
    ("submitted/alice/exercises/softmax.py", False),
])
def test_nbgrader_layout_is_recognised(tmp_path, layout, expected):
    path = tmp_path / layout
    path.parent.mkdir(parents=True)
    path.write_text("{}")
    assert is_nbgrader_submission(tmp_path / "submitted" / "alice") is expected


def test_build_refuses_to_overwrite_without_force(tmp_path):
    (tmp_path / "nbgrader_config.py").write_text("")
    with pytest.raises(KitError, match="--force"):
        build_course(COURSE, tmp_path)
