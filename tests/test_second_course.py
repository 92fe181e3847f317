"""A second course, written from docs/writing-an-exercise.md alone, graded end to end with no engine change.

`tests/courses/causal/` is a small course of its own from the lesson's ideas: `scores` (Q Kᵀ / √d_k),
`causal` (each token attends to itself and earlier tokens only; calls `scores`; declares the setting
`future_weight_limit`) and `heads` (causal attention in several heads; calls `causal`). The kit's
commands run on it as an instructor and a student would, each a real subprocess with its working
folder in the course (or in the handout):

- `attnkit grade` on a class: the reference, the stubs, every catalogued variant, a broken zip;
- `attnkit handout`, then `attnkit check` inside it;
- `attnkit nbgrader build`, nbgrader's own `generate_assignment` and `autograde`, and `attnkit grade`
  on the same `submitted/` folder.

The fast tests at the top hold the course's mistake models to the reference, as `test_models.py`
does for the first course (whose tests are bound to the repository's course.toml).
"""
from __future__ import annotations

import importlib
import importlib.util
import itertools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest
import torch
from hypothesis import given, settings, strategies as st

from attnkit.config import load_course
from attnkit.grading.catalogue import load_catalogue
from attnkit.grading.models import Flaws, ModelLibrary
from attnkit.grading.variants import write_variant_package
from kit import nbgrader_exercise_points
from test_models import assert_apart, single_answers, well_chosen

COURSE_DIR = Path(__file__).resolve().parent / "courses" / "causal"
COURSE = load_course(COURSE_DIR / "course.toml")
CATALOGUE = load_catalogue(COURSE.mistakes_dir)
VARIANTS = [(m.id, i, v) for m in CATALOGUE.with_variants() for i, v in enumerate(m.variants)]
# Named by the grader from the student's own weights, beside whatever the model explains.
PROPERTY_MISTAKES = {"causal-attends-later"}
ASSIGNMENT = "causal_attention"
LIBRARY = ModelLibrary(COURSE.mistakes_dir)


def attnkit(*arguments: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["attnkit", *arguments], cwd=cwd, capture_output=True, text=True, timeout=600)


def package(target: Path, modules: Path) -> Path:
    """A submission folder whose `exercises` holds a copy of `modules` (the stubs or the reference)."""
    shutil.copytree(modules, target / "exercises", ignore=shutil.ignore_patterns("__pycache__"))
    return target


def feedback(out: Path, student: str) -> dict:
    return json.loads((out / "feedback" / f"{student}.json").read_text())


# --- fast: the mistake models -------------------------------------------------------


def reference_function(exercise) -> object:
    """The reference's function of an exercise, from the course's solutions/ imported under a name of
    its own (the repository's course has a `solutions` package too)."""
    name = "causal_course_solutions"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, COURSE.solutions_dir / "__init__.py",
                                                      submodule_search_locations=[str(COURSE.solutions_dir)])
        sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[name])
    return getattr(importlib.import_module(f"{name}.{exercise.module}"), exercise.functions[0])


def as_tuple(answer) -> tuple:
    return answer if isinstance(answer, tuple) else (answer,)


def model_arguments(exercise_id: str, sizes: tuple[int, ...], seed: int) -> list:
    """Inputs by the graders' rule: n tokens (m keys for `scores`, m heads for `heads`), key length
    d_k, value length d_v (a head's, for `heads`), a batch dimension."""
    n, m, d_k, d_v, batch = sizes
    rng = np.random.default_rng(seed)

    def tensor(*shape: int) -> torch.Tensor:
        return torch.tensor(rng.normal(size=shape))

    if exercise_id == "scores":
        return [tensor(batch, n, d_k), tensor(batch, m, d_k)]
    if exercise_id == "causal":
        return [tensor(batch, n, d_k), tensor(batch, n, d_k), tensor(batch, n, d_v)]
    return [tensor(batch, n, m * d_k), tensor(batch, n, m * d_k), tensor(batch, n, m * d_v), m]


# Every (n, m, d_k, d_v, batch) the graders' rule allows, from 4 to 16: drawn from, not filtered for.
WELL_CHOSEN = [sizes for sizes in itertools.permutations(range(4, 17), 5)
               if all(abs(a - b) > 1 for a, b in itertools.combinations(sizes, 2))
               and well_chosen(sizes[2], [*sizes[:2], *sizes[3:]], 3)]


@pytest.mark.parametrize("exercise", COURSE.exercises, ids=COURSE.ids)
@settings(max_examples=6, deadline=None)
@given(sizes=st.sampled_from(WELL_CHOSEN), seed=st.integers(0, 2**16))
def test_each_model_is_the_reference_and_keeps_its_mistakes_apart(exercise, sizes, seed):
    arguments = model_arguments(exercise.id, sizes, seed)
    model = LIBRARY.model(exercise.module, exercise.functions[0])
    correct = as_tuple(reference_function(exercise)(*arguments))
    assert all(torch.allclose(a, b) for a, b in zip(as_tuple(model(Flaws(frozenset()), *arguments)), correct))
    assert_apart(single_answers(model, arguments), [c.numpy() for c in correct])


# --- slow: a class through `attnkit grade` --------------------------------------------


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> Path:
    """The output folder of one `attnkit grade` run, in the course folder, over a small class."""
    root = tmp_path_factory.mktemp("causal-class")
    students = root / "submissions"
    package(students / "reference", COURSE.solutions_dir)
    package(students / "stubs", COURSE.exercises_dir)
    for mistake_id, index, variant in VARIANTS:
        write_variant_package(COURSE.solutions_dir, variant, students / f"{mistake_id}--{index}" / "exercises")
    (students / "broken-not-a-zip.zip").write_text("this is not a zip")
    run = attnkit("grade", str(students), "--out", str(root / "out"), cwd=COURSE_DIR)
    assert run.returncode == 0, run.stderr
    return root / "out"


@pytest.mark.slow
def test_reference_gets_full_marks(graded):
    record = feedback(graded, "reference")
    failed = [(e, c["name"], c["message"]) for e, x in record["exercises"].items()
              for c in x["checks"] if not c["passed"]]
    assert failed == []
    assert record["score"] == record["max_score"] == COURSE.max_total


@pytest.mark.slow
@pytest.mark.parametrize("exercise_id", COURSE.ids)
def test_untouched_stub_is_not_implemented(graded, exercise_id):
    result = feedback(graded, "stubs")["exercises"][exercise_id]
    assert result["score"] == 0
    assert result["mistakes"] == ["not-implemented"]


@pytest.mark.slow
@pytest.mark.parametrize("mistake_id,index,variant", VARIANTS, ids=[f"{m}-{i}" for m, i, _ in VARIANTS])
def test_each_variant_is_named_as_itself(graded, mistake_id, index, variant):
    result = feedback(graded, f"{mistake_id}--{index}")["exercises"][CATALOGUE[mistake_id].exercise]
    assert result["score"] < result["max_score"]
    assert mistake_id in result["mistakes"]
    assert set(result["mistakes"]) <= {mistake_id, *PROPERTY_MISTAKES}


@pytest.mark.slow
@pytest.mark.parametrize("student,exercise_id,dependency", [
    ("scores-unscaled--0", "causal", "scores"),
    ("causal-mask-zero--0", "heads", "causal"),
])
def test_a_correct_exercise_over_a_wrong_dependency_keeps_its_points(graded, student, exercise_id, dependency):
    result = feedback(graded, student)["exercises"][exercise_id]
    assert result["score"] == result["max_score"]
    assert result["carried_from"] == [dependency] and result["mistakes"] == []


@pytest.mark.slow
def test_broken_zip_gets_zeros_and_its_reason(graded):
    record = feedback(graded, "broken-not-a-zip")
    assert record["score"] == 0 and "not a zip file" in record["problem"]


@pytest.mark.slow
def test_the_exercise_setting_in_course_toml_reaches_its_grader(graded, tmp_path):
    """The same leaking weights pass `test_no_weight_on_later_tokens` once course.toml allows them."""
    def leak_check(out: Path, student: str) -> dict:
        causal = feedback(out, student)["exercises"]["causal"]
        return next(c for c in causal["checks"] if c["test"] == "test_no_weight_on_later_tokens")

    course = shutil.copytree(COURSE_DIR, tmp_path / "course")
    toml = course / "course.toml"
    toml.write_text(toml.read_text().replace("future_weight_limit = 1e-6", "future_weight_limit = 1.0"))
    [leaking] = CATALOGUE["causal-attends-later"].variants
    write_variant_package(COURSE.solutions_dir, leaking, tmp_path / "class" / "leaks" / "exercises")
    assert attnkit("grade", str(tmp_path / "class"), "--out", str(tmp_path / "out"), cwd=course).returncode == 0
    assert not leak_check(graded, "causal-attends-later--0")["passed"]
    assert leak_check(tmp_path / "out", "leaks")["passed"]


# --- slow: the handout and `attnkit check` in it ---------------------------------------


@pytest.fixture(scope="module")
def handout(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("causal-handout") / "handout"
    run = attnkit("handout", "--out", str(out), cwd=COURSE_DIR)
    assert run.returncode == 0, run.stderr
    return out


def checked(handout: Path, folder: Path, exercises: Path | None = None) -> tuple[int, dict]:
    """`attnkit check --json` in a copy of the handout, with `exercises` in place of the stubs if given."""
    student = shutil.copytree(handout, folder)
    if exercises is not None:
        shutil.rmtree(student / "exercises")
        shutil.copytree(exercises, student / "exercises")
    run = attnkit("check", "--json", cwd=student)
    return run.returncode, json.loads(run.stdout)["exercises"]


def handout_texts(handout: Path) -> dict[str, str]:
    return {str(p.relative_to(handout)): p.read_text(errors="replace") for p in handout.rglob("*") if p.is_file()}


@pytest.mark.slow
def test_handout_stubs_fail_as_not_implemented(handout, tmp_path):
    status, exercises = checked(handout, tmp_path / "student")
    assert status == 1
    assert {e: x["mistakes"] for e, x in exercises.items()} == {e: ["not-implemented"] for e in COURSE.ids}


@pytest.mark.slow
def test_handout_passes_the_reference(handout, tmp_path):
    status, exercises = checked(handout, tmp_path / "student", COURSE.solutions_dir)
    assert status == 0
    assert [c["name"] for x in exercises.values() for c in x["checks"] if not c["passed"]] == []


@pytest.mark.slow
def test_handout_names_a_public_mistake(handout, tmp_path):
    [variant] = CATALOGUE["causal-mask-zero"].variants
    write_variant_package(COURSE.solutions_dir, variant, tmp_path / "mistaken" / "exercises")
    status, exercises = checked(handout, tmp_path / "student", tmp_path / "mistaken" / "exercises")
    assert status == 1
    assert exercises["scores"]["mistakes"] == [] and exercises["causal"]["mistakes"] == ["causal-mask-zero"]


@pytest.mark.slow
def test_handout_holds_no_solution_and_no_hidden_check(handout):
    stubs = "\n".join(p.read_text() for p in COURSE.exercises_dir.glob("*.py"))
    solution_lines = {line.strip() for p in COURSE.solutions_dir.glob("*.py") for line in p.read_text().splitlines()
                      if line.strip() and line.strip() not in stubs and not line.strip().startswith(("#", '"""'))}
    hidden = {c.test for e in COURSE.exercises for c in e.checks if not c.public}
    texts = handout_texts(handout)
    assert [(name, line) for name, text in texts.items() for line in solution_lines if line in text] == []
    assert [(name, test) for name, text in texts.items() for test in hidden if test in text] == []


@pytest.mark.slow
def test_handout_cuts_the_helpers_only_hidden_checks_use(handout):
    assert "def returned_weights" not in (handout / "checks" / "test_causal.py").read_text()


@pytest.mark.slow
def test_handout_readme_names_only_this_courses_exercises(handout):
    assert "softmax" not in (handout / "README.md").read_text()


# --- slow: nbgrader's own commands, and `attnkit grade` on the same notebooks -------------


def nbgrader(*arguments: str, cwd: Path) -> None:
    # In a virtual environment, Jupyter's data (nbconvert's templates) may live in the base Python's prefix.
    env = {**os.environ, "JUPYTER_PATH": os.path.join(sys.base_prefix, "share", "jupyter")}
    run = subprocess.run([sys.executable, "-m", "nbgrader", *arguments], cwd=cwd, capture_output=True, text=True,
                         timeout=600, env=env)
    assert run.returncode == 0, run.stderr[-3000:]


def with_unscaled_scores(course_dir: Path, student: str) -> None:
    """The reference's notebook (`attnkit nbgrader sample`) with the scores-unscaled edit in its scores answer."""
    sample = course_dir / "submitted" / "alice" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    notebook = nbformat.read(sample, as_version=4)
    [cell] = [c for c in notebook.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "scores-answer"]
    [(old, new)] = CATALOGUE["scores-unscaled"].variants[0].edits
    assert old in cell.source
    cell.source = cell.source.replace(old, new)
    (course_dir / "submitted" / student / ASSIGNMENT).mkdir(parents=True)
    nbformat.write(notebook, course_dir / "submitted" / student / ASSIGNMENT / f"{ASSIGNMENT}.ipynb")


@pytest.fixture(scope="module")
def nbgrader_course(tmp_path_factory) -> Path:
    """An nbgrader course folder taken through build, generate_assignment, two students and autograde."""
    course_dir = tmp_path_factory.mktemp("causal-nbgrader") / "course"
    run = attnkit("nbgrader", "build", "--course-dir", str(course_dir), "--assignment", ASSIGNMENT, cwd=COURSE_DIR)
    assert run.returncode == 0, run.stderr
    nbgrader("generate_assignment", ASSIGNMENT, cwd=course_dir)
    run = attnkit("nbgrader", "sample", "--course-dir", str(course_dir), "--student", "alice", cwd=COURSE_DIR)
    assert run.returncode == 0, run.stderr
    with_unscaled_scores(course_dir, "bob")
    nbgrader("autograde", ASSIGNMENT, cwd=course_dir)
    return course_dir


@pytest.fixture(scope="module")
def nbgrader_scores(nbgrader_course) -> dict[str, dict[str, float]]:
    return nbgrader_exercise_points(COURSE, nbgrader_course / "gradebook.db", ASSIGNMENT, ["alice", "bob"])


@pytest.fixture(scope="module")
def kit_scores(nbgrader_course, tmp_path_factory) -> dict[str, dict[str, float]]:
    out = tmp_path_factory.mktemp("causal-nbgrader-grades")
    run = attnkit("grade", str(nbgrader_course / "submitted"), "--out", str(out), cwd=COURSE_DIR)
    assert run.returncode == 0, run.stderr
    return {s: {e: x["score"] for e, x in feedback(out, s)["exercises"].items()} for s in ("alice", "bob")}


@pytest.mark.slow
def test_nbgrader_gives_the_reference_full_marks(nbgrader_scores):
    assert nbgrader_scores["alice"] == {e.id: e.points for e in COURSE.exercises}


@pytest.mark.slow
def test_nbgrader_takes_points_only_where_the_mistake_is(nbgrader_scores):
    assert nbgrader_scores["bob"] == {e.id: 0.0 if e.id == "scores" else e.points for e in COURSE.exercises}


@pytest.mark.slow
@pytest.mark.parametrize("student", ["alice", "bob"])
def test_nbgrader_and_the_kit_give_the_same_exercise_scores(nbgrader_scores, kit_scores, student):
    assert nbgrader_scores[student] == kit_scores[student]
