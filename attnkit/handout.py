"""The student handout: stubs, public checks and their recorded answers, a README.

Nothing in it is solution code or a hidden check: hidden test functions are
cut out of the grader files, the catalogue loses its variants (they are edits
of the reference), and the public checks' expected answers are numbers
recorded from the reference on the lesson's own inputs.
"""
from __future__ import annotations

import ast
import dataclasses
import json
import shutil
import tempfile
from pathlib import Path

from attnkit.config import Course, Exercise
from attnkit.errors import KitError
from attnkit.grading.catalogue import Catalogue, Mistake, load_catalogue
from attnkit.grading.oracle import RecordingOracle, ReferenceOracle
from attnkit.grading.plugin import Submission
from attnkit.grading.session import RECORDED_ANSWERS, run_checks

CHECKS = "checks"


def write_handout(course: Course, out: Path) -> Path:
    """Write the handout folder; `out` must be new or empty."""
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise KitError(f"{out}: folder is not empty; choose a new folder for the handout")
    if not course.exercises_dir.is_dir():
        raise KitError(f"{course.exercises_dir}: the stubs folder does not exist")
    if not course.solutions_dir.is_dir():
        raise KitError(f"{course.solutions_dir}: the handout's answers are recorded from the reference, which is missing")
    checks = out / CHECKS
    (checks / "mistakes").mkdir(parents=True)
    shutil.copytree(course.exercises_dir, out / "exercises", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    exercises = [e for e in course.exercises if e.public_checks]
    for exercise in exercises:
        source = course.grader_file(exercise).read_text(encoding="utf-8")
        (checks / f"test_{exercise.id}.py").write_text(public_only(source, exercise), encoding="utf-8")
    catalogue = load_catalogue(course.mistakes_dir)
    (checks / "mistakes" / "catalogue.toml").write_text(catalogue_without_variants(catalogue), encoding="utf-8")
    record_answers(course, checks / RECORDED_ANSWERS)
    (out / "course.toml").write_text(handout_registry(course, exercises), encoding="utf-8")
    (out / "README.md").write_text(student_readme(course, exercises), encoding="utf-8")
    return out


def public_only(source: str, exercise: Exercise) -> str:
    """The grader's source without its hidden test functions."""
    hidden = {c.test for c in exercise.checks if not c.public}
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    cut = [
        (node.lineno - len(node.decorator_list), node.end_lineno)
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name in hidden
    ]
    for start, end in sorted(cut, reverse=True):
        del lines[start - 1:end]
    return "".join(lines)


def catalogue_without_variants(catalogue: Catalogue) -> str:
    """The catalogue's words (explanations, hints) without the edits that reproduce each mistake."""
    blocks = ["# The mistakes your checks can name, with what they mean.\n"]
    for mistake in catalogue.mistakes.values():
        blocks.append(_mistake_toml(mistake))
    return "\n".join(blocks)


def _mistake_toml(mistake: Mistake) -> str:
    def text(value: str) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = [f"[mistake.{mistake.id}]", f"exercise = {text(mistake.exercise)}", f"summary = {text(mistake.summary)}",
             f"explanation = {text(mistake.explanation)}", f"hint = {text(mistake.hint)}"]
    if mistake.forbid:
        lines.append(f"forbid = [{', '.join(text(c) for c in mistake.forbid)}]")
    if mistake.signature:
        lines.append(f"signature = {text(mistake.signature)}")
    return "\n".join(lines) + "\n"


def record_answers(course: Course, path: Path) -> None:
    """Run the public checks on the reference and keep every answer they compare with."""
    oracle = RecordingOracle(ReferenceOracle(course.solutions_dir, course.mistakes_dir))
    with tempfile.TemporaryDirectory(prefix="attnkit-handout-") as scratch:
        shutil.copytree(course.solutions_dir, Path(scratch) / "exercises")
        results = run_checks(course, [Submission("reference", Path(scratch))], public_only=True, oracle=oracle)
    failed = [f"{e}.{c.test}" for r in results for e, x in r.exercises.items() for c in x.checks if not c.passed]
    if failed:
        raise KitError(f"{course.solutions_dir}: the reference fails public checks: {', '.join(failed)}")
    oracle.save(path)


def handout_registry(course: Course, exercises: list[Exercise]) -> str:
    """A course.toml for the handout: the same exercises with their public checks only."""
    def text(value: object) -> str:
        return json.dumps(value.tolist() if hasattr(value, "tolist") else value, ensure_ascii=False)

    ids = [e.id for e in exercises]
    lines = ["# The handout's registry: public checks only. Hidden checks run when your work is graded.", "",
             "[course]", f"name = {text(course.name)}", f"lesson = {text(course.lesson)}",
             'exercises = "exercises"', f'graders = "{CHECKS}"', f'mistakes = "{CHECKS}/mistakes"', "",
             "[settings]"]
    lines += [f"{key} = {text(value)}" for key, value in dataclasses.asdict(course.settings).items()]
    lines += ["", "[grading]", f"carry_forward = {text(course.grading.carry_forward)}", "", "[data]"]
    lines += [f"{key} = {text(value)}" for key, value in course.data.items()]
    for exercise in exercises:
        public = exercise.public_checks
        lines += ["", "[[exercise]]", f"id = {text(exercise.id)}", f"title = {text(exercise.title)}",
                  f"module = {text(exercise.module)}",
                  f"depends_on = {text([d for d in exercise.depends_on if d in ids])}",
                  f"functions = {text(list(exercise.functions))}",
                  f"points = {text(sum(c.points for c in public))}", "checks = ["]
        if exercise.settings:
            lines.insert(-1, "settings = { " + ", ".join(f"{k} = {text(v)}" for k, v in exercise.settings.items()) + " }")
        lines += [f"  {{ test = {text(c.test)}, points = {text(c.points)}, public = true }}," for c in public]
        lines.append("]")
    return "\n".join(lines) + "\n"


def student_readme(course: Course, exercises: list[Exercise]) -> str:
    """The handout's README: what to fill in, how to check it, how to hand it in."""
    rows = "\n".join(f"| {i} | `{e.id}` | `exercises/{e.module}.py` | {e.title} |"
                     for i, e in enumerate(course.exercises, 1))
    return f"""# {course.lesson}: exercises

{course.name}. Fill in the TODOs of each module in `exercises/`, in this order:

| # | exercise | file | what you write |
|---|---|---|---|
{rows}

Each TODO says what to compute, with the shapes, and which section of the lesson to reread.

## Check your work

    attnkit check              # every exercise
    attnkit check softmax      # one exercise
    attnkit check --json       # the same, as JSON

Each line is one check: ✓ passed, ✗ failed with the mistake the kit recognised and a hint.
These are the public checks, on the lesson's own numbers. When your work is graded, hidden checks
also run: fresh random inputs, batches, non-square grids, float64, large scores. Passing every public
check is a good sign, not a guarantee.

## Hand it in

    attnkit submit --student YOUR_ID

This packs `exercises/` into `YOUR_ID.zip`; upload that file.
"""
