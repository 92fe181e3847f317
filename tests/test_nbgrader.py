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
- dave: every answer right, but his cake cell loops forever after its work;
- mallory: the release as handed out, with an attack at the top of her first
  answer cell: it looks for the course every way a cell could (the
  environment, the folders above, nbgrader's /proc entries) to copy the
  reference into her `submitted/` notebook, and tries to rewrite it anyway.

nbgrader runs with this interpreter (`python -m nbgrader`), so its kernels
and the kit's launcher import the attnkit under test. The fast tests at the end
pin the extraction, the notebook's make-up and the kernel's confinement.
"""
from __future__ import annotations

import ast
import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbgrader.preprocessors import ClearSolutions

from attnkit.config import load_course
from attnkit.errors import KitError
from attnkit.grading.results import CheckResult
from attnkit.nbgrader.answers import BEGIN, CODE_STUB, END, answer_cell_source, module_source
from attnkit.nbgrader.build import build_course
from attnkit.nbgrader.checks import REPORT_WIDTH, check_report
from attnkit.nbgrader.extract import (
    NotebookReader,
    answer_sources,
    extract_exercises,
    is_nbgrader_submission,
    package_files,
    write_package,
)
from attnkit.nbgrader.notebooks import BEGIN_HIDDEN, build_notebook, check_cell_id
from attnkit.nbgrader.release import without_top_level_stubs
from attnkit.nbgrader.samples import grade_id, only_assignment, solved_notebook
from attnkit.sandbox import isolation
from kit import CATALOGUE, COURSE, QUICK_CALLS, REPO, course_copy, nbgrader_exercise_points

ASSIGNMENT = "self_attention"
NOTEBOOK = f"{ASSIGNMENT}.ipynb"
TIMEOUT = 10  # seconds a cell may run at autograde: an answer cell imports torch; dave's loop waits this long
MISTAKE = "softmax-wrong-dim"
EDITED_CELL, DELETED_CELL = (check_cell_id(COURSE.exercise("softmax"), c)
                             for c in COURSE.exercise("softmax").public_checks)
LOOPING_EXERCISE = "cake"
STUDENTS = ["alice", "bob", "carol", "dave", "mallory"]


def losing(exercise_id: str) -> set[str]:
    """An exercise and, unless the course carries errors forward, every exercise built on it."""
    built_on = [e.id for e in COURSE.exercises if exercise_id in COURSE.dependencies(e.id)]
    return {exercise_id, *([] if COURSE.grading.carry_forward else built_on)}


# Exercises a student must lose points on; every other exercise earns full marks.
LOSES = {
    "alice": set(),
    "bob": losing("softmax"),
    "carol": losing("softmax"),
    "dave": {LOOPING_EXERCISE},
    "mallory": set(COURSE.ids),
}
NBGRADER = (sys.executable, "-m", "nbgrader")
ROUTES = ["env", "walk", "proc-environ", "proc-cwd"]
# Mallory's first answer cell, before the released code: every way a cell could find the course and the
# notebook nbgrader copied from submitted/, then the reference copied in (or, without it, a changed byte).
POISON = r"""
import json, os, re
from pathlib import Path

def course_at(folder):
    folder = Path(folder)
    if (folder / "course.toml").is_file() and (folder / "solutions").is_dir():
        return folder / "course.toml"
    config = folder / "nbgrader_config.py"
    match = config.is_file() and re.search(r"[\x27\x22]([^\x27\x22]*course\.toml)[\x27\x22]", config.read_text())
    return (folder / match.group(1)).resolve() if match and (folder / match.group(1)).is_file() else None

def walk(start):
    return next((c for c in map(course_at, [Path(start), *Path(start).resolve().parents]) if c), None)

def from_environment(values):
    return next((Path(v) for v in values if v.endswith("course.toml") and Path(v).is_file()), None)

def parent_environment():
    return [entry.partition("=")[2] for entry in Path(f"/proc/{os.getppid()}/environ").read_text().split("\0")]

routes = {"env": lambda: from_environment(os.environ.values()), "walk": lambda: walk(Path.cwd()),
          "proc-environ": lambda: from_environment(parent_environment()),
          "proc-cwd": lambda: walk(os.readlink(f"/proc/{os.getppid()}/cwd"))}
courses = []
for name, route in routes.items():
    try:
        found = route()
        print(f"route {name}: {found or 'nothing'}")
    except Exception as error:
        found = None
        print(f"route {name}: nothing ({type(error).__name__})")
    courses += [found] if found else []

def poisoned(path):
    notebook = json.loads(Path(path).read_text())
    for cell in notebook["cells"]:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id", "")
        if grade_id.endswith("-answer") and courses:
            exercise = grade_id[:-len("-answer")]
            solution = (courses[0].parent / "solutions" / f"{exercise}.py").read_text()
            cell["source"] = f"# attnkit exercise: {exercise}\n{solution}"
    notebook["metadata"]["poisoned"] = True
    return json.dumps(notebook)

mine = Path("mallory/self_attention/self_attention.ipynb")
targets = [Path("self_attention.ipynb"), Path("../../../submitted") / mine,
           Path(f"/proc/{os.getppid()}/cwd/submitted") / mine]
for target in targets:
    try:
        target.write_text(poisoned(target))
        print(f"write {target}: ok")
    except Exception as error:
        print(f"write {target}: {type(error).__name__}")
"""


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


def poisons(notebook: nbformat.NotebookNode, release: nbformat.NotebookNode) -> None:
    for cell in notebook.cells:
        if grade_id(cell) and grade_id(cell).endswith("-answer"):
            cell.source = answer(release, grade_id(cell)[:-len("-answer")]).source
    first = answer(notebook, COURSE.ids[0])
    marker, _, rest = first.source.partition("\n")
    first.source = f"{marker}\n{POISON}\n{rest}"


def run(*command: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    # In a virtual environment, Jupyter's data (nbconvert's templates) may live in the base Python's prefix.
    env = {**(env or os.environ), "JUPYTER_PATH": os.path.join(sys.base_prefix, "share", "jupyter")}
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=900, env=env)
    assert result.returncode == 0, f"{command}: {result.stderr[-3000:]}"
    return result


def place_students(course_dir: Path) -> None:
    """alice through `attnkit nbgrader sample` (the course folder's only assignment); the others edited from it."""
    run("attnkit", "nbgrader", "sample", "--course-dir", str(course_dir), "--student", "alice",
        cwd=course_repo_of(course_dir))
    release = nbformat.read(course_dir / "release" / ASSIGNMENT / NOTEBOOK, as_version=4)
    edits = {"bob": with_mistake, "carol": lambda nb: edits_test_cells(nb, release), "dave": loops_forever,
             "mallory": lambda nb: poisons(nb, release)}
    for student, edit in edits.items():
        notebook = solved_notebook(course_dir, ASSIGNMENT)
        edit(notebook)
        folder = course_dir / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        nbformat.write(notebook, folder / NOTEBOOK)


def course_repo_of(course_dir: Path) -> Path:
    """The copy of the course repo that `course_dir` was built from, beside it."""
    return course_dir.parent / "repo"


@pytest.fixture(scope="module")
def course_dir(tmp_path_factory) -> Path:
    """A course taken through build, generate_assignment, autograde, generate_feedback and export.

    Built from a copy of the course whose call_timeout is short: the kit's grading of dave's looping
    cake (at autograde, and twice by `attnkit grade`) waits that, not course.toml's ten seconds.
    Autograde runs with the course's path in nbgrader's environment (as an instructor might have
    exported it), so a cell that read its parent's environment would find it there.
    """
    course_dir = tmp_path_factory.mktemp("nbgrader") / "course"
    repo = course_copy(course_repo_of(course_dir), **QUICK_CALLS)
    run("attnkit", "nbgrader", "build", "--course-dir", str(course_dir), "--timeout", str(TIMEOUT), cwd=repo)
    run(*NBGRADER, "generate_assignment", ASSIGNMENT, cwd=course_dir)
    place_students(course_dir)
    shutil.copytree(course_dir / "submitted", course_dir.parent / "as-submitted")
    run(*NBGRADER, "autograde", ASSIGNMENT, cwd=course_dir,
        env={**os.environ, "ATTNKIT_COURSE": str(repo / "course.toml")})
    run(*NBGRADER, "generate_feedback", ASSIGNMENT, cwd=course_dir)
    run(*NBGRADER, "export", cwd=course_dir)
    return course_dir


@pytest.fixture(scope="module")
def nbgrader_scores(course_dir) -> dict[str, dict[str, float]]:
    return nbgrader_exercise_points(COURSE, course_dir / "gradebook.db", ASSIGNMENT, STUDENTS)


def kit_grade(course_dir: Path, submissions: Path, out: Path) -> dict[str, dict[str, float]]:
    """Per student, per exercise: `attnkit grade` of a folder of nbgrader submissions, with the course
    `course_dir` was built from."""
    run("attnkit", "grade", str(submissions), "--out", str(out), cwd=course_repo_of(course_dir))
    records = {s: json.loads((out / "feedback" / f"{s}.json").read_text()) for s in STUDENTS}
    return {s: {e: x["score"] for e, x in r["exercises"].items()} for s, r in records.items()}


@pytest.fixture(scope="module")
def kit_scores(course_dir, tmp_path_factory) -> dict[str, dict[str, float]]:
    """`attnkit grade` on the same `submitted/` folder, after autograde."""
    return kit_grade(course_dir, course_dir / "submitted", tmp_path_factory.mktemp("attnkit-grades"))


def attack_report(course_dir: Path) -> dict[str, str]:
    """What mallory's attack printed at autograde: `route <name>` and `write <path>` lines, by that name."""
    lines = cell_text(answer(autograded(course_dir, "mallory"), COURSE.ids[0])).splitlines()
    return dict(line.split(": ", 1) for line in lines if line.startswith(("route ", "write ")))


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


def test_a_released_constants_cell_keeps_the_given_values_and_raises_nothing():
    """cake's cell raised NotImplementedError after each of its three constants: a student who had fixed
    KEYS met the next raise. The release keeps the handed-out values as live code instead."""
    released = released_cell("cake")
    assert "NotImplementedError" not in released
    given: dict = {}
    exec((COURSE.root / "exercises" / "cake.py").read_text(), given)
    names: dict = {}
    exec(released, names)  # raises nothing
    assert {k: names[k] for k in ("QUERIES", "VALUES", "KEYS", "PREDICTED_WEIGHTS", "PREDICTED_OUTPUT")} == \
        {k: given[k] for k in ("QUERIES", "VALUES", "KEYS", "PREDICTED_WEIGHTS", "PREDICTED_OUTPUT")}


@pytest.mark.parametrize("exercise", [e.id for e in COURSE.exercises if e.id != "cake"])
def test_a_released_function_still_raises_until_it_is_written(exercise):
    released = released_cell(exercise)
    assert "    raise NotImplementedError()" in released


def released_cell(exercise: str) -> str:
    """An exercise's answer cell as nbgrader's ClearSolutions and then the kit's step release it."""
    module = COURSE.exercise(exercise).module
    source = answer_cell_source(exercise, (COURSE.root / "exercises" / f"{module}.py").read_text(),
                                (COURSE.solutions_dir / f"{module}.py").read_text())
    cell = nbformat.v4.new_code_cell(source)
    ClearSolutions(code_stub={"python": CODE_STUB})._replace_solution_region(cell, "python")
    return without_top_level_stubs(cell.source)


@pytest.mark.slow
def test_the_released_cake_cell_runs(course_dir):
    release = nbformat.read(course_dir / "release" / ASSIGNMENT / NOTEBOOK, as_version=4)
    cake = next(c for c in release.cells if "QUERIES = " in c.source)
    assert "NotImplementedError" not in cake.source
    exec(cake.source, {})


def test_a_verdict_is_wrapped_for_the_feedback_page():
    """nbgrader's feedback page shows a cell's output preformatted, never wrapped by the browser."""
    long = "Your answer has the right shape but different numbers, " * 6
    check = CheckResult("the lesson's outputs", "test_x", True, passed=False, points=0.0, max_points=1.0,
                        message=long.strip(), mistakes=["wrong-values"], hint="Work this step by hand. " * 8)
    lines = check_report("attention", check).splitlines()
    assert max(len(line) for line in lines) <= REPORT_WIDTH and len(lines) > 4
    assert " ".join(line.strip() for line in lines).count("different numbers") == 6


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
    env = {k: v for k, v in os.environ.items() if k != "NBGRADER_EXECUTION"}
    client = NotebookClient(notebook, timeout=TIMEOUT, allow_errors=True, kernel_name="python3",
                            resources={"metadata": {"path": str(folder)}})
    client.execute(env=env)  # passed on to the kernel's start
    softmax = next(c for c in notebook.cells if grade_id(c) == EDITED_CELL)
    assert MISTAKE in cell_text(softmax) and "hint:" in cell_text(softmax)
    scores = next(c for c in notebook.cells if grade_id(c) == check_cell_id(COURSE.exercise("scaled_scores"),
                                                                           COURSE.exercise("scaled_scores").checks[0]))
    assert "✓" in cell_text(scores)


# --- a cell that tries to poison its own grade ------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("route", ROUTES)
def test_a_cell_finds_no_course_at_autograde(course_dir, route):
    assert attack_report(course_dir)[f"route {route}"].startswith("nothing")


@pytest.mark.slow
def test_a_cell_cannot_write_the_notebook_in_submitted(course_dir):
    writes = {target: outcome for target, outcome in attack_report(course_dir).items() if target.startswith("write")}
    assert len(writes) == 3
    assert "ok" not in writes.values()


@pytest.mark.slow
@pytest.mark.parametrize("student", STUDENTS)
def test_autograde_leaves_each_submission_as_it_was_handed_in(course_dir, student):
    notebook = Path(student) / ASSIGNMENT / NOTEBOOK
    handed_in = (course_dir.parent / "as-submitted" / notebook).read_bytes()
    assert (course_dir / "submitted" / notebook).read_bytes() == handed_in


@pytest.mark.slow
def test_the_kit_grades_submitted_after_autograde_as_it_was_handed_in(course_dir, kit_scores, tmp_path):
    assert kit_scores == kit_grade(course_dir, course_dir.parent / "as-submitted", tmp_path / "grades")


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
        assert (flags["grade"], flags["solution"], flags["locked"], flags["points"]) == \
            (True, False, True, check.points)
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
    stub = ('"""Exercise x."""\nimport torch\n\n\ndef f(a,\n      b):\n    # TODO(x): add\n'
            '    raise NotImplementedError\n\n\nX = 1\n')
    reference = "import math\nimport torch\n\n\ndef f(a,\n      b):\n    return a + b\n\n\nX = 2\n"
    cell = answer_cell_source("x", stub, reference).splitlines()
    assert cell[:3] == ["# attnkit exercise: x", "import torch", "import math"]
    assert cell[5:11] == ["def f(a,", "      b):", "    # TODO(x): add",
                          f"    {BEGIN}", "    return a + b", f"    {END}"]
    assert cell[-4:] == ["X = 1", BEGIN, "X = 2", END]


def test_released_cake_cell_keeps_the_handed_out_keys(notebook):
    """nbgrader's own ClearSolutions makes the release: the value a student edits stays live code."""
    from nbgrader.preprocessors import ClearSolutions

    released, _ = ClearSolutions(code_stub={"python": "raise NotImplementedError()"}).preprocess(
        nbformat.from_dict(json.loads(json.dumps(notebook))), {})
    names = {ast.unparse(n.targets[0]): ast.unparse(n.value) for n in ast.parse(answer(released, "cake").source).body
             if isinstance(n, ast.Assign)}
    stub = {ast.unparse(n.targets[0]): ast.unparse(n.value)
            for n in ast.parse((COURSE.exercises_dir / "cake.py").read_text()).body if isinstance(n, ast.Assign)}
    assert names["KEYS"] == stub["KEYS"]


def test_module_keeps_the_cells_line_numbers():
    cell = "# attnkit exercise: attention\nimport torch\n\n\ndef attention(Q, K, V):\n    raise ValueError\n"
    module = module_source(cell, ["softmax", "scaled_scores"], ["softmax"])
    assert module.splitlines()[1:] == cell.splitlines()[1:]
    assert module.splitlines()[0].endswith("# attnkit exercise: attention")


def test_ipython_magic_lines_become_pass_on_the_same_line():
    module = module_source("# attnkit exercise: softmax\n%matplotlib inline\nimport torch\n", [], [])
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


# --- fast: each answer's module sees the cells above it -----------------------------


def cells(bodies: dict[str, str]) -> dict[str, str]:
    """Answer cells by grade id: each exercise's marker line, then its body."""
    return {f"{e}-answer": f"# attnkit exercise: {e}\n{body}" for e, body in bodies.items()}


def import_names(files: dict[str, str], exercise_id: str, root: Path) -> subprocess.CompletedProcess:
    """Import one exercise's module of the package `files` in a fresh Python; print its `name_*` names."""
    write_package(files, root)
    code = (f"import exercises.{COURSE.exercise(exercise_id).module} as m; "
            "print(sorted(k for k in vars(m) if k.startswith('name_')))")
    return subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60)


def test_an_answer_sees_the_names_of_every_earlier_cell(tmp_path):
    """A helper defined in any earlier cell works, declared dependency or not."""
    *earlier, last = COURSE.ids
    bodies = {e: f"name_{i} = {i}\n" for i, e in enumerate(earlier)}
    bodies[last] = f"total = {' + '.join(f'name_{i}' for i in range(len(earlier)))}\n"
    result = import_names(package_files(cells(bodies), COURSE), last, tmp_path)
    assert result.stdout.strip() == str(sorted(f"name_{i}" for i in range(len(earlier)))), result.stderr


def test_an_earlier_cell_that_fails_hides_only_its_names(tmp_path):
    """As in a notebook: the failed cell's names (and those of cells built on it) are missing, the rest there."""
    *earlier, last = COURSE.ids
    failing = next(e for e in earlier if e not in COURSE.dependencies(last))
    bodies = {e: f"name_{i} = {i}\n" for i, e in enumerate(earlier)}
    bodies[failing] = "raise ValueError('unfinished')\n"
    bodies[last] = "\n"
    expected = [f"name_{i}" for i, e in enumerate(earlier) if failing not in (e, *COURSE.dependencies(e))]
    result = import_names(package_files(cells(bodies), COURSE), last, tmp_path)
    assert result.stdout.strip() == str(sorted(expected)), result.stderr


def test_a_declared_dependency_that_fails_fails_its_dependent(tmp_path):
    dependent = next(e for e in COURSE.exercises if e.depends_on)
    bodies = {e: "\n" for e in COURSE.ids}
    bodies[dependent.depends_on[0]] = "raise ValueError('unfinished dependency')\n"
    result = import_names(package_files(cells(bodies), COURSE), dependent.id, tmp_path)
    assert result.returncode != 0
    assert "unfinished dependency" in result.stderr


# --- fast: the generated config, the sample, the intake reader ----------------------


@pytest.fixture(scope="module")
def course_repo(tmp_path_factory) -> Path:
    """A copy of the course repo with its nbgrader course folder built inside, as the README lays it out."""
    repo = course_copy(tmp_path_factory.mktemp("repo"))
    build_course(load_course(repo / "course.toml"), repo / "nbgrader-course")
    return repo


def test_config_holds_no_absolute_path(course_repo):
    text = (course_repo / "nbgrader-course" / "nbgrader_config.py").read_text()
    assert re.findall(r"[\x27\x22](/[^\x27\x22]*)[\x27\x22]", text) == []


def test_config_finds_the_course_in_a_copy_elsewhere(course_repo, tmp_path):
    from traitlets.config.loader import PyFileConfigLoader

    copy = shutil.copytree(course_repo, tmp_path / "elsewhere")
    config = PyFileConfigLoader("nbgrader_config.py", path=str(copy / "nbgrader-course")).load_config()
    assert Path(config.KitExecute.course).resolve() == copy / "course.toml"


@pytest.mark.slow
def test_validate_runs_the_source_notebook_through_every_check(course_repo):
    """`nbgrader validate`, in a course folder inside the course repo, grades hidden checks too."""
    folder = course_repo / "nbgrader-course"
    result = run(*NBGRADER, "validate", f"source/{ASSIGNMENT}/{NOTEBOOK}", cwd=folder)
    assert "Success! Your notebook passes all the tests." in result.stdout


def test_sample_takes_the_only_assignment(tmp_path):
    (tmp_path / "source" / "week_1").mkdir(parents=True)
    assert only_assignment(tmp_path) == "week_1"


def test_sample_names_the_assignments_when_there_are_several(tmp_path):
    for name in ("week_1", "week_2"):
        (tmp_path / "source" / name).mkdir(parents=True)
    with pytest.raises(KitError, match="week_1, week_2"):
        only_assignment(tmp_path)


def test_intake_reader_reads_a_students_notebooks_as_their_package(notebook, tmp_path):
    folder = tmp_path / "submitted" / "alice" / ASSIGNMENT
    folder.mkdir(parents=True)
    nbformat.write(notebook, folder / NOTEBOOK)
    reader = NotebookReader(COURSE)
    assert reader.recognises(tmp_path / "submitted" / "alice")
    assert reader.read(tmp_path / "submitted" / "alice") == {
        name: text.encode() for name, text in package_files(answer_sources(folder), COURSE).items()}


# --- fast: the kernel's launcher ----------------------------------------------------

confined_only = pytest.mark.skipif(isolation.probe() is not None, reason="confining kernels needs Linux and root")
COURSE_PATH_VARIABLE = "ATTNKIT_COURSE"


def launch(tmp_path: Path, code: str, *options: str) -> subprocess.CompletedProcess:
    """`python -c code` started by the kit's kernel launcher, as nbgrader's kernel manager starts a kernel."""
    (tmp_path / "connection.json").write_text("{}")
    (tmp_path / "verdicts.json").write_text("{}")
    command = [sys.executable, "-m", "attnkit.nbgrader.kernel", "--verdicts", str(tmp_path / "verdicts.json"),
               "--connection-file", str(tmp_path / "connection.json"), "--memory-mb", "2048", "--cpu-seconds", "60",
               *options, "--", sys.executable, "-c", code]
    env = {**os.environ, COURSE_PATH_VARIABLE: str(REPO / "course.toml")}
    return subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=60)


@confined_only
def test_confined_kernel_sees_nothing_of_the_course(tmp_path):
    paths = [REPO / "course.toml", COURSE.solutions_dir, COURSE.graders_dir, tmp_path]
    result = launch(tmp_path, f"import os; print([os.path.exists(p) for p in {[str(p) for p in paths]!r}])")
    assert result.stdout.strip() == str([False] * len(paths)), result.stderr


@confined_only
def test_confined_kernel_imports_the_kit_and_reads_its_verdicts(tmp_path):
    code = "import os, attnkit.nbgrader.checks; print(open(os.environ['ATTNKIT_VERDICTS']).read())"
    result = launch(tmp_path, code)
    assert result.stdout.strip() == "{}", result.stderr


@confined_only
def test_confined_kernel_sees_no_other_process(tmp_path):
    result = launch(tmp_path, "import os; print(os.getppid(), [p for p in os.listdir('/proc') if p.isdigit()])")
    assert result.stdout.strip() == "0 ['1']", result.stderr


@confined_only
def test_confined_kernel_writes_only_its_own_scratch(tmp_path):
    code = ("import attnkit, os\n"
            "for folder in ('/tmp', os.path.dirname(attnkit.__file__), '/'):\n"
            "    try:\n        open(os.path.join(folder, 'x'), 'w').close(); print(folder, 'written')\n"
            "    except OSError as error:\n        print(folder, type(error).__name__)\n")
    lines = launch(tmp_path, code).stdout.splitlines()
    assert lines[0] == "/tmp written"
    assert [line.endswith("written") for line in lines[1:]] == [False, False]


@confined_only
def test_what_a_confined_kernel_starts_ends_with_it(tmp_path):
    marker = "271.828"
    code = f"import subprocess; subprocess.Popen(['sleep', '{marker}'], start_new_session=True)"
    assert launch(tmp_path, code).returncode == 0
    running = [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit() and marker in _cmdline(p)]
    for pid in running:  # a failure here must not leave them to others
        os.kill(pid, signal.SIGKILL)
    assert running == []


def _cmdline(process: Path) -> str:
    try:
        return (process / "cmdline").read_text()
    except OSError:
        return ""


@pytest.mark.parametrize("options", [(), ("--unconfined",)], ids=["confined", "unconfined"])
def test_kernel_environment_names_no_course(tmp_path, options):
    if not options and isolation.probe() is not None:
        pytest.skip("confining kernels needs Linux and root")
    result = launch(tmp_path, "import json, os; print(json.dumps(dict(os.environ)))", *options)
    environment = json.loads(result.stdout)
    assert COURSE_PATH_VARIABLE not in environment
    assert [v for v in environment.values() if names_the_course(v)] == []


def test_a_kernel_run_from_a_virtual_environment_in_the_course_is_not_told_where_that_is(tmp_path):
    """The usual `.venv` inside a course repository: the kernel's interpreter lives in the course, and
    its folder on the kernel's PATH named the course (a fresh clone failed the test above)."""
    interpreter = tmp_path / "course" / ".venv" / "bin" / "python"
    interpreter.parent.mkdir(parents=True)
    interpreter.symlink_to(sys.executable)
    (tmp_path / "connection.json").write_text("{}")
    (tmp_path / "verdicts.json").write_text("{}")
    command = [sys.executable, "-m", "attnkit.nbgrader.kernel", "--verdicts", str(tmp_path / "verdicts.json"),
               "--connection-file", str(tmp_path / "connection.json"), "--memory-mb", "2048", "--cpu-seconds", "60",
               "--unconfined", "--", str(interpreter), "-c", "import json, os; print(json.dumps(dict(os.environ)))"]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    environment = json.loads(result.stdout)
    assert [v for v in environment.values() if str(tmp_path / "course") in v] == []


def names_the_course(value: str) -> bool:
    """Whether an environment value holds the course repository (or a path in it) or a course.toml.

    Compared path by path, so a sibling whose name starts the same (/tmp/fresh and /tmp/freshvenv) is not it.
    """
    paths = [Path(part) for part in value.split(os.pathsep) if part.startswith("/")]
    return "course.toml" in value or any(path == REPO or REPO in path.parents for path in paths)


def test_a_helper_only_the_reference_defines_goes_into_the_answer_cell_as_solution():
    stub = 'import torch\n\n\ndef whole(x):\n    """Doc."""\n    raise NotImplementedError\n'
    solution = ('import torch\n\n\ndef half(x):\n    return x / 2\n\n\n'
                'def whole(x):\n    """Doc."""\n    return half(x) * 2\n')
    cell = answer_cell_source("whole", stub, solution)
    assert cell.index("### BEGIN SOLUTION\ndef half(x):") < cell.index("def whole(x):")
