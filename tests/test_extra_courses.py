"""The extra courses, each written from docs/writing-an-exercise.md alone, graded by every route with no engine change.

Two small courses of their own live in `tests/courses/`:
- `causal/`: `scores` (Q Kᵀ / √d_k), `causal` (each token attends to itself and earlier tokens only;
  calls `scores`; declares the setting `future_weight_limit`) and `heads` (causal attention in several
  heads; calls `causal`);
- `layernorm/`: `normalise` ((x - mean) / √(variance + eps) over the last dimension) and `layernorm`
  (a LayerNorm layer with a learned `gain` and `bias`; calls `normalise`).

The kit's commands run on each as an instructor and a student would, each a real subprocess with its
working folder in the course (or in the handout):
- `attnkit grade` on a class: the reference, the stubs, every catalogued variant, the hand-written
  submissions of `tests/submissions/<course>/` (correct ones in other styles, and mistakes), a broken zip;
- `attnkit handout`, then `attnkit check` inside it;
- `attnkit gradescope`, then the autograder's own `run_autograder` on an upload;
- `attnkit nbgrader build`, nbgrader's own `generate_assignment` and `autograde`, and `attnkit grade`
  on the same `submitted/` folder.

The fast tests at the top hold each course's mistake models to its reference, as `test_models.py`
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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import numpy as np
import pytest
import torch
from hypothesis import given, settings, strategies as st

from attnkit.config import Course, load_course
from attnkit.grading.catalogue import Catalogue, load_catalogue
from attnkit.grading.models import Flaws, ModelLibrary
from attnkit.grading.variants import write_variant_package
from kit import nbgrader_exercise_points
from test_gradescope import assert_gradescope_format, run_autograder, unpacked
from test_models import assert_apart, single_answers, well_chosen

COURSES_DIR = Path(__file__).resolve().parent / "courses"
SUBMISSIONS_DIR = Path(__file__).resolve().parent / "submissions"  # <course>/correct/, <course>/mistakes/: overlays


# --- what each course is, and the examples its tests use ------------------------------


def causal_arguments(exercise_id: str, sizes: tuple[int, ...], rng: np.random.Generator) -> list:
    """Inputs by the causal graders' rule: n tokens (m keys for `scores`, m heads for `heads`), key
    length d_k, value length d_v (a head's, for `heads`), a batch dimension."""
    n, m, d_k, d_v, batch = sizes

    def tensor(*shape: int) -> torch.Tensor:
        return torch.tensor(rng.normal(size=shape))

    if exercise_id == "scores":
        return [tensor(batch, n, d_k), tensor(batch, m, d_k)]
    if exercise_id == "causal":
        return [tensor(batch, n, d_k), tensor(batch, n, d_k), tensor(batch, n, d_v)]
    return [tensor(batch, n, m * d_k), tensor(batch, n, m * d_k), tensor(batch, n, m * d_v), m]


def layernorm_arguments(exercise_id: str, sizes: tuple[int, ...], rng: np.random.Generator) -> list:
    """Inputs by the layernorm graders' rule: a batch of n tokens of d numbers with a small spread, an eps
    near their variance; for the layer, its init arguments, a gain and bias far from 1 and 0, and a nearly
    flat first token in every sentence."""
    n, d, batch = sizes[:3]
    x = rng.normal(scale=0.5, size=(batch, n, d))
    if exercise_id == "layernorm":
        x[..., 0, :] = rng.normal() + rng.normal(scale=1e-3, size=(batch, d))
    x = torch.tensor(x)
    eps = float(rng.uniform(0.1, 1.0))
    if exercise_id == "normalise":
        return [x, eps]
    weights = {"gain": torch.tensor(rng.uniform(1.5, 3.0, size=d) * rng.choice([-1.0, 1.0], size=d)),
               "bias": torch.tensor(rng.normal(size=d))}
    return [(d, eps), weights, x]


@dataclass(frozen=True)
class ExtraCourse:
    """One course of tests/courses/, and the facts of it its tests need beyond its registry and catalogue."""

    name: str
    arguments: Callable[[str, tuple[int, ...], np.random.Generator], list]  # a model's inputs, by exercise id
    carried: list[tuple[str, str, str]]  # (a variant's student, an exercise spared by carry forward, its dependency)
    public_mistake: str                  # a mistake the handout's public checks name
    nbgrader_mistake: str                # a mistake edited into the reference's notebook (its exercise loses all)
    assignment: str                      # the nbgrader assignment's name
    property_mistakes: frozenset[str] = frozenset()  # named by a grader beside whatever the model explains
    hidden_only_helper: str | None = None            # a helper of a grader only hidden checks use
    dir: Path = field(init=False)
    course: Course = field(init=False)
    catalogue: Catalogue = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "dir", COURSES_DIR / self.name)
        object.__setattr__(self, "course", load_course(self.dir / "course.toml"))
        object.__setattr__(self, "catalogue", load_catalogue(self.course.mistakes_dir))

    @property
    def variants(self) -> list[tuple[str, int, object]]:
        return [(m.id, i, v) for m in self.catalogue.with_variants() for i, v in enumerate(m.variants)]

    def overlays(self, kind: str) -> list[tuple[str]]:
        """The names of the course's hand-written submissions of one kind ("correct" or "mistakes")."""
        folder = SUBMISSIONS_DIR / self.name / kind
        return sorted((p.name,) for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []

    def __str__(self) -> str:
        return self.name


CAUSAL = ExtraCourse("causal", causal_arguments, carried=[("scores-unscaled--0", "causal", "scores"),
                                                          ("causal-mask-zero--0", "heads", "causal")],
                     public_mistake="causal-mask-zero", nbgrader_mistake="scores-unscaled",
                     assignment="causal_attention",
                     property_mistakes=frozenset({"causal-attends-later"}), hidden_only_helper="returned_weights")
LAYERNORM = ExtraCourse("layernorm", layernorm_arguments,
                        carried=[("normalise-unbiased-variance--0", "layernorm", "normalise")],
                        public_mistake="normalise-unbiased-variance", nbgrader_mistake="normalise-unbiased-variance",
                        assignment="layer_norm")
COURSES = [CAUSAL, LAYERNORM]


def each_course(names: tuple[str, ...], items: Callable[[ExtraCourse], list], ids: Callable[[tuple], str]):
    """Parametrise a test over (course, *item) for every item of every course, with ids `<course>-<item>`."""
    cases = [(c, *item) for c in COURSES for item in items(c)]
    return pytest.mark.parametrize(("extra", *names), cases, ids=[f"{case[0]}-{ids(case[1:])}" for case in cases])


def exercise_cases(extra: ExtraCourse) -> list[tuple]:
    return [(exercise,) for exercise in extra.course.exercises]


over_courses = pytest.mark.parametrize("extra", COURSES, ids=str)


def attnkit(*arguments: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["attnkit", *arguments], cwd=cwd, capture_output=True, text=True, timeout=600)


def package(target: Path, modules: Path) -> Path:
    """A submission folder whose `exercises` holds a copy of `modules` (the stubs or the reference)."""
    shutil.copytree(modules, target / "exercises", ignore=shutil.ignore_patterns("__pycache__"))
    return target


def feedback(out: Path, student: str) -> dict:
    return json.loads((out / "feedback" / f"{student}.json").read_text())


class PerCourse:
    """One expensive run per course, made the first time a test asks for it (a module-scoped fixture's value)."""

    def __init__(self, make: Callable[[ExtraCourse], object]):
        self.make, self.made = make, {}

    def __call__(self, extra: ExtraCourse):
        if extra.name not in self.made:
            self.made[extra.name] = self.make(extra)
        return self.made[extra.name]


# --- fast: the mistake models -------------------------------------------------------


def reference_module(extra: ExtraCourse, module: str):
    """A module of the course's solutions/, imported under a package name of its own (the repository's
    course has a `solutions` package too)."""
    name = f"{extra.name}_course_solutions"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, extra.course.solutions_dir / "__init__.py",
                                                      submodule_search_locations=[str(extra.course.solutions_dir)])
        sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[name])
    return importlib.import_module(f"{name}.{module}")


def reference_answer(extra: ExtraCourse, exercise, arguments: list) -> tuple:
    """The reference's answer to a model's arguments: its function called, or its layer built with the
    weights set and run on the input."""
    module = reference_module(extra, exercise.module)
    if exercise.functions:
        return as_tuple(getattr(module, exercise.functions[0])(*arguments))
    init, weights, x = arguments
    layer = getattr(module, model_name(exercise))(*init).double()
    with torch.no_grad():
        for name, value in weights.items():
            layer.get_parameter(name).copy_(value)
    return as_tuple(layer(x))


def model_name(exercise) -> str:
    """The exercise's function, or for a layer exercise its class (the one the graders ask for)."""
    return exercise.functions[0] if exercise.functions else {"layernorm": "LayerNorm"}[exercise.id]


def as_tuple(answer) -> tuple:
    return answer if isinstance(answer, tuple) else (answer,)


# Every (n, m, d_k, d_v, batch) the graders' rule allows, from 4 to 16: drawn from, not filtered for.
# (The layernorm graders use the first three as n, d and batch: pairwise different, none one more than another.)
WELL_CHOSEN = [sizes for sizes in itertools.permutations(range(4, 17), 5)
               if all(abs(a - b) > 1 for a, b in itertools.combinations(sizes, 2))
               and well_chosen(sizes[2], [*sizes[:2], *sizes[3:]], 3)]


@each_course(("exercise",), exercise_cases, ids=lambda case: case[0].id)
@settings(max_examples=6, deadline=None)
@given(sizes=st.sampled_from(WELL_CHOSEN), seed=st.integers(0, 2**16))
def test_each_model_is_the_reference_and_keeps_its_mistakes_apart(extra, exercise, sizes, seed):
    arguments = extra.arguments(exercise.id, sizes, np.random.default_rng(seed))
    model = ModelLibrary(extra.course.mistakes_dir).model(exercise.module, model_name(exercise))
    correct = reference_answer(extra, exercise, arguments)
    assert all(torch.allclose(a, b) for a, b in zip(as_tuple(model(Flaws(frozenset()), *arguments)), correct))
    assert_apart(single_answers(model, arguments), [c.detach().numpy() for c in correct])


# --- slow: a class through `attnkit grade` --------------------------------------------


def grade_a_class(extra: ExtraCourse, root: Path) -> Path:
    """The output folder of one `attnkit grade` run, in the course folder, over a small class."""
    students = root / "submissions"
    package(students / "reference", extra.course.solutions_dir)
    package(students / "stubs", extra.course.exercises_dir)
    for mistake_id, index, variant in extra.variants:
        write_variant_package(extra.course.solutions_dir, variant, students / f"{mistake_id}--{index}" / "exercises")
    for kind in ("correct", "mistakes"):
        for (name,) in extra.overlays(kind):
            overlay = package(students / f"{kind}--{name}", extra.course.solutions_dir) / "exercises"
            for module in (SUBMISSIONS_DIR / extra.name / kind / name).glob("*.py"):
                shutil.copy(module, overlay / module.name)
    (students / "broken-not-a-zip.zip").write_text("this is not a zip")
    run = attnkit("grade", str(students), "--out", str(root / "out"), cwd=extra.dir)
    assert run.returncode == 0, run.stderr
    return root / "out"


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> PerCourse:
    return PerCourse(lambda extra: grade_a_class(extra, tmp_path_factory.mktemp(f"{extra}-class")))


@pytest.mark.slow
@over_courses
def test_reference_gets_full_marks(graded, extra):
    record = feedback(graded(extra), "reference")
    failed = [(e, c["name"], c["message"]) for e, x in record["exercises"].items()
              for c in x["checks"] if not c["passed"]]
    assert failed == []
    assert record["score"] == record["max_score"] == extra.course.max_total


@pytest.mark.slow
@each_course(("exercise",), exercise_cases, ids=lambda case: case[0].id)
def test_untouched_stub_is_not_implemented(graded, extra, exercise):
    result = feedback(graded(extra), "stubs")["exercises"][exercise.id]
    assert result["score"] == 0
    assert result["mistakes"] == ["not-implemented"]


@pytest.mark.slow
@each_course(("mistake_id", "index", "variant"), lambda extra: extra.variants, ids=lambda case: f"{case[0]}-{case[1]}")
def test_each_variant_is_named_as_itself(graded, extra, mistake_id, index, variant):
    result = feedback(graded(extra), f"{mistake_id}--{index}")["exercises"][extra.catalogue[mistake_id].exercise]
    assert result["score"] < result["max_score"]
    assert mistake_id in result["mistakes"]
    assert set(result["mistakes"]) <= {mistake_id, *extra.property_mistakes}


@pytest.mark.slow
@each_course(("name",), lambda extra: extra.overlays("correct"), ids=lambda case: case[0])
def test_a_correct_submission_in_another_style_gets_full_marks(graded, extra, name):
    record = feedback(graded(extra), f"correct--{name}")
    assert {e: x["mistakes"] for e, x in record["exercises"].items()} == {e: [] for e in extra.course.ids}
    assert record["score"] == record["max_score"]


@pytest.mark.slow
@each_course(("name",), lambda extra: extra.overlays("mistakes"), ids=lambda case: case[0])
def test_a_hand_written_mistake_is_named_on_its_exercise(graded, extra, name):
    mistake_id = name.split("--")[0]
    [module] = [p.stem for p in (SUBMISSIONS_DIR / extra.name / "mistakes" / name).glob("*.py")]
    exercise_id = next(e.id for e in extra.course.exercises if e.module == module)
    result = feedback(graded(extra), f"mistakes--{name}")["exercises"][exercise_id]
    assert result["score"] < result["max_score"]
    assert result["mistakes"] == [mistake_id]


@pytest.mark.slow
@each_course(("student", "exercise_id", "dependency"), lambda extra: extra.carried, ids=lambda case: case[1])
def test_a_correct_exercise_over_a_wrong_dependency_keeps_its_points(graded, extra, student, exercise_id, dependency):
    result = feedback(graded(extra), student)["exercises"][exercise_id]
    assert result["score"] == result["max_score"]
    assert result["carried_from"] == [dependency] and result["mistakes"] == []


@pytest.mark.slow
@over_courses
def test_broken_zip_gets_zeros_and_its_reason(graded, extra):
    record = feedback(graded(extra), "broken-not-a-zip")
    assert record["score"] == 0 and "not a zip file" in record["problem"]


@pytest.mark.slow
def test_the_exercise_setting_in_course_toml_reaches_its_grader(graded, tmp_path):
    """The same leaking weights pass `test_no_weight_on_later_tokens` once course.toml allows them."""
    def leak_check(out: Path, student: str) -> dict:
        causal = feedback(out, student)["exercises"]["causal"]
        return next(c for c in causal["checks"] if c["test"] == "test_no_weight_on_later_tokens")

    course = shutil.copytree(CAUSAL.dir, tmp_path / "course")
    toml = course / "course.toml"
    toml.write_text(toml.read_text().replace("future_weight_limit = 1e-6", "future_weight_limit = 1.0"))
    [leaking] = CAUSAL.catalogue["causal-attends-later"].variants
    write_variant_package(CAUSAL.course.solutions_dir, leaking, tmp_path / "class" / "leaks" / "exercises")
    assert attnkit("grade", str(tmp_path / "class"), "--out", str(tmp_path / "out"), cwd=course).returncode == 0
    assert not leak_check(graded(CAUSAL), "causal-attends-later--0")["passed"]
    assert leak_check(tmp_path / "out", "leaks")["passed"]


# --- slow: the handout and `attnkit check` in it ---------------------------------------


def write_handout(extra: ExtraCourse, out: Path) -> Path:
    run = attnkit("handout", "--out", str(out), cwd=extra.dir)
    assert run.returncode == 0, run.stderr
    return out


@pytest.fixture(scope="module")
def handout(tmp_path_factory) -> PerCourse:
    return PerCourse(lambda extra: write_handout(extra, tmp_path_factory.mktemp(f"{extra}-handout") / "handout"))


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
@over_courses
def test_handout_stubs_fail_as_not_implemented(handout, extra, tmp_path):
    status, exercises = checked(handout(extra), tmp_path / "student")
    assert status == 1
    assert {e: x["mistakes"] for e, x in exercises.items()} == {e: ["not-implemented"] for e in extra.course.ids}


@pytest.mark.slow
@over_courses
def test_handout_passes_the_reference(handout, extra, tmp_path):
    status, exercises = checked(handout(extra), tmp_path / "student", extra.course.solutions_dir)
    assert status == 0
    assert [c["name"] for x in exercises.values() for c in x["checks"] if not c["passed"]] == []


@pytest.mark.slow
@over_courses
def test_handout_names_a_public_mistake(handout, extra, tmp_path):
    """The public checks name the mistake in its own exercise, and blame none of the exercises it builds on."""
    mistake = extra.catalogue[extra.public_mistake]
    [variant] = mistake.variants[:1]
    write_variant_package(extra.course.solutions_dir, variant, tmp_path / "mistaken" / "exercises")
    status, exercises = checked(handout(extra), tmp_path / "student", tmp_path / "mistaken" / "exercises")
    [exercise] = [e for e in extra.course.exercises if e.id == mistake.exercise]
    assert status == 1
    assert exercises[mistake.exercise]["mistakes"] == [mistake.id]
    assert all(exercises[dependency]["mistakes"] == [] for dependency in exercise.depends_on)


@pytest.mark.slow
@over_courses
def test_handout_holds_no_solution_and_no_hidden_check(handout, extra):
    course = extra.course
    stubs = "\n".join(p.read_text() for p in course.exercises_dir.glob("*.py"))
    solution_lines = {line.strip() for p in course.solutions_dir.glob("*.py") for line in p.read_text().splitlines()
                      if line.strip() and line.strip() not in stubs and not line.strip().startswith(("#", '"""'))}
    hidden = {c.test for e in course.exercises for c in e.checks if not c.public}
    texts = handout_texts(handout(extra))
    assert [(name, line) for name, text in texts.items() for line in solution_lines if line in text] == []
    assert [(name, test) for name, text in texts.items() for test in hidden if test in text] == []


@pytest.mark.slow
@pytest.mark.parametrize("extra", [c for c in COURSES if c.hidden_only_helper], ids=str)
def test_handout_cuts_the_helpers_only_hidden_checks_use(handout, extra):
    checks = "\n".join(p.read_text() for p in (handout(extra) / "checks").glob("test_*.py"))
    assert f"def {extra.hidden_only_helper}" not in checks


@pytest.mark.slow
@over_courses
def test_handout_readme_names_only_this_courses_exercises(handout, extra):
    assert "softmax" not in (handout(extra) / "README.md").read_text()


# --- slow: `attnkit gradescope` and the autograder's run_autograder ---------------------


def graded_on_gradescope(extra: ExtraCourse, root: Path) -> dict:
    """results.json of run_autograder, unpacked from this course's autograder.zip, on the first carried
    student's upload (an exercise wrong, one spared by error carried forward)."""
    run = attnkit("gradescope", "--out", str(root / "zip"), cwd=extra.dir)
    assert run.returncode == 0, run.stderr
    autograder = unpacked(root / "zip" / "autograder.zip", root / "gradescope")
    mistake_id, index = extra.carried[0][0].rsplit("--", 1)
    variant = extra.catalogue[mistake_id].variants[int(index)]
    write_variant_package(extra.course.solutions_dir, variant, autograder / "submission" / "exercises")
    return run_autograder(autograder)


@pytest.mark.slow
@over_courses
def test_gradescope_scores_each_check_as_attnkit_grade_does(graded, extra, tmp_path):
    results = graded_on_gradescope(extra, tmp_path)
    record = feedback(graded(extra), extra.carried[0][0])
    assert_gradescope_format(results)
    assert results["score"] == record["score"] < record["max_score"]
    assert [t["score"] for t in results["tests"]] == [
        c["points"] for e in extra.course.exercises for c in record["exercises"][e.id]["checks"]]


# --- slow: nbgrader's own commands, and `attnkit grade` on the same notebooks -------------


def nbgrader(*arguments: str, cwd: Path) -> None:
    # In a virtual environment, Jupyter's data (nbconvert's templates) may live in the base Python's prefix.
    env = {**os.environ, "JUPYTER_PATH": os.path.join(sys.base_prefix, "share", "jupyter")}
    run = subprocess.run([sys.executable, "-m", "nbgrader", *arguments], cwd=cwd, capture_output=True, text=True,
                         timeout=600, env=env)
    assert run.returncode == 0, run.stderr[-3000:]


def with_a_mistake(extra: ExtraCourse, course_dir: Path, student: str) -> None:
    """The reference's notebook (`attnkit nbgrader sample`) with the nbgrader mistake's edits in its answer cell."""
    mistake = extra.catalogue[extra.nbgrader_mistake]
    sample = course_dir / "submitted" / "alice" / extra.assignment / f"{extra.assignment}.ipynb"
    notebook = nbformat.read(sample, as_version=4)
    answer = f"{mistake.exercise}-answer"
    [cell] = [c for c in notebook.cells if c.metadata.get("nbgrader", {}).get("grade_id") == answer]
    for old, new in mistake.variants[0].edits:
        assert old in cell.source
        cell.source = cell.source.replace(old, new)
    (course_dir / "submitted" / student / extra.assignment).mkdir(parents=True)
    nbformat.write(notebook, course_dir / "submitted" / student / extra.assignment / f"{extra.assignment}.ipynb")


def autograded(extra: ExtraCourse, course_dir: Path) -> Path:
    """An nbgrader course folder taken through build, generate_assignment, two students and autograde."""
    run = attnkit("nbgrader", "build", "--course-dir", str(course_dir), "--assignment", extra.assignment, cwd=extra.dir)
    assert run.returncode == 0, run.stderr
    nbgrader("generate_assignment", extra.assignment, cwd=course_dir)
    run = attnkit("nbgrader", "sample", "--course-dir", str(course_dir), "--student", "alice", cwd=extra.dir)
    assert run.returncode == 0, run.stderr
    with_a_mistake(extra, course_dir, "bob")
    nbgrader("autograde", extra.assignment, cwd=course_dir)
    return course_dir


@pytest.fixture(scope="module")
def nbgrader_course(tmp_path_factory) -> PerCourse:
    return PerCourse(lambda extra: autograded(extra, tmp_path_factory.mktemp(f"{extra}-nbgrader") / "course"))


@pytest.fixture(scope="module")
def nbgrader_scores(nbgrader_course) -> PerCourse:
    return PerCourse(lambda extra: nbgrader_exercise_points(extra.course, nbgrader_course(extra) / "gradebook.db",
                                                            extra.assignment, ["alice", "bob"]))


def kit_grades(extra: ExtraCourse, submitted: Path, out: Path) -> dict[str, dict[str, float]]:
    run = attnkit("grade", str(submitted), "--out", str(out), cwd=extra.dir)
    assert run.returncode == 0, run.stderr
    return {s: {e: x["score"] for e, x in feedback(out, s)["exercises"].items()} for s in ("alice", "bob")}


@pytest.fixture(scope="module")
def kit_scores(nbgrader_course, tmp_path_factory) -> PerCourse:
    return PerCourse(lambda extra: kit_grades(extra, nbgrader_course(extra) / "submitted",
                                              tmp_path_factory.mktemp(f"{extra}-nbgrader-grades")))


@pytest.mark.slow
@over_courses
def test_nbgrader_gives_the_reference_full_marks(nbgrader_scores, extra):
    assert nbgrader_scores(extra)["alice"] == {e.id: e.points for e in extra.course.exercises}


@pytest.mark.slow
@over_courses
def test_nbgrader_takes_points_only_where_the_mistake_is(nbgrader_scores, extra):
    mistaken = extra.catalogue[extra.nbgrader_mistake].exercise
    expected = {e.id: 0.0 if e.id == mistaken else e.points for e in extra.course.exercises}
    assert nbgrader_scores(extra)["bob"] == expected


@pytest.mark.slow
@each_course(("student",), lambda extra: [("alice",), ("bob",)], ids=lambda case: case[0])
def test_nbgrader_and_the_kit_give_the_same_exercise_scores(nbgrader_scores, kit_scores, extra, student):
    assert nbgrader_scores(extra)[student] == kit_scores(extra)[student]
