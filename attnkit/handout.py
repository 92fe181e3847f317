"""The student handout: stubs, public checks and their recorded answers, the kit's wheel, a README.

Nothing in it is solution code or a hidden check: each grader file keeps only its public checks and
what they reach, the catalogue loses its variants (they are edits of the reference), the mistake
models stay behind (they are the reference computation), and the public checks' expected answers
are numbers recorded from the reference on the lesson's own inputs. The folder installs on its own:
its requirements.txt names the kit's wheel (`attnkit.distribution`) and pinned dependencies.
"""
from __future__ import annotations

import ast
import dataclasses
import json
import re
import shutil
import tempfile
from pathlib import Path
from typing import TypeGuard

from attnkit.config import Course, Exercise, grader_file_name
from attnkit.distribution import build_wheel, installed_version, pinned_requirements, requirements_text
from attnkit.errors import KitError
from attnkit.grading.catalogue import Catalogue, Mistake, load_catalogue
from attnkit.grading.oracle import RecordingOracle, ReferenceOracle
from attnkit.grading.plugin import Submission
from attnkit.grading.session import RECORDED_ANSWERS, run_checks
from attnkit.self_check import RECORDED_WITH

CHECKS = "checks"
REQUIREMENTS = "requirements.txt"
KEEP_TORCH = "requirements-keep-torch.txt"  # the same without the torch pin: for a torch already installed
UV_PROJECT = "pyproject.toml"  # the handout as a uv project: `uv run attnkit check`
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"
INSTALL = f"python3 -m pip install -r {REQUIREMENTS}"
KEPT_ALWAYS = {"SETTINGS"}  # an exercise's declared settings, which course.toml's are checked against


def write_handout(course: Course, out: Path) -> Path:
    """Write the handout folder; `out` must be new or empty."""
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise KitError(f"{out}: folder is not empty; choose a new folder for the handout")
    if not course.exercises_dir.is_dir():
        raise KitError(f"{course.exercises_dir}: the stubs folder does not exist")
    if not course.solutions_dir.is_dir():
        raise KitError(f"{course.solutions_dir}: the handout's answers are recorded from the reference, "
                       "which is missing")
    checks = out / CHECKS
    (checks / "mistakes").mkdir(parents=True)
    shutil.copytree(course.exercises_dir, out / "exercises", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    exercises = [e for e in course.exercises if e.public_checks]
    for exercise in exercises:
        source = course.grader_file(exercise).read_text(encoding="utf-8")
        (checks / grader_file_name(exercise.id)).write_text(public_only(source, exercise), encoding="utf-8")
    catalogue = load_catalogue(course.mistakes_dir)
    (checks / "mistakes" / "catalogue.toml").write_text(catalogue_without_variants(catalogue), encoding="utf-8")
    record_answers(course, checks / RECORDED_ANSWERS)
    (checks / RECORDED_WITH).write_text(json.dumps({"torch": installed_version("torch")}) + "\n", encoding="utf-8")
    wheel = build_wheel(out, for_students=True)
    (out / REQUIREMENTS).write_text(requirements_text(wheel, f"The handout's install: {INSTALL}"), encoding="utf-8")
    (out / KEEP_TORCH).write_text(requirements_text(
        wheel, f"Where torch 2.2 or later is installed already: python3 -m pip install -r {KEEP_TORCH}",
        keep_torch=True), encoding="utf-8")
    (out / UV_PROJECT).write_text(uv_project(course, wheel), encoding="utf-8")
    (out / "course.toml").write_text(handout_registry(course, exercises), encoding="utf-8")
    (out / "README.md").write_text(student_readme(course, pinned_requirements()), encoding="utf-8")
    return out


def public_only(source: str, exercise: Exercise) -> str:
    """What the exercise's public checks need of its grader file, and nothing else.

    Kept: the public test functions (their docstrings name the checks), every top-level definition,
    constant and import they reach through the names they use (directly, or through what those
    use), and `SETTINGS`. Left out: hidden tests, helpers only they reach, the module docstring and
    the helpers' docstrings (they describe the hidden checks), and comments between definitions.
    """
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    body = [node for node in tree.body if not _is_docstring(node)]
    public = {check.test for check in exercise.public_checks}
    wanted = public | KEPT_ALWAYS
    kept: list[ast.stmt] = []
    grown = True
    while grown:
        grown = False
        for node in body:
            if node not in kept and (_binds(node) & wanted or not _binds(node)):
                kept.append(node)
                wanted |= _uses(node)
                grown = True
    text = f'"""Public checks of exercise `{exercise.id}`, run by `attnkit check`; hidden checks run at grading."""\n'
    previous: ast.stmt | None = None
    for node in (n for n in body if n in kept):
        text += _separator(previous, node) + _kept_source(node, lines, wanted, public)
        previous = node
    return text


def _separator(previous: ast.stmt | None, node: ast.stmt) -> str:
    """PEP 8's blank lines: none within the imports, one between constants, two around definitions."""
    definitions = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    if previous is None or (_is_import(previous) and _is_import(node)):
        return ""
    if not isinstance(previous, definitions) and not isinstance(node, definitions) and not _is_import(previous):
        return "\n"
    return "\n\n"


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _is_import(node: ast.stmt) -> TypeGuard[ast.Import | ast.ImportFrom]:
    return isinstance(node, (ast.Import, ast.ImportFrom))


def _binds(node: ast.stmt) -> set[str]:
    """The top-level names a statement defines (none for a `__future__` import: it is kept, as it changes the rest)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, ast.ImportFrom) and node.module == "__future__":
        return set()
    if _is_import(node):
        return {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
        node, (ast.AnnAssign, ast.AugAssign)) else []
    return {n.id for target in targets for n in ast.walk(target) if isinstance(n, ast.Name)}


def _uses(node: ast.stmt) -> set[str]:
    """Every name a statement mentions: variables, and parameters (pytest passes fixtures by name)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.arg for n in ast.walk(node) if isinstance(n, ast.arg)}


def _kept_source(node: ast.stmt, lines: list[str], wanted: set[str], public: set[str]) -> str:
    """The statement's own lines: an import narrowed to the names used, a helper without its docstring."""
    if _is_import(node):
        names = [a for a in node.names if (a.asname or a.name).split(".")[0] in wanted or not _binds(node)]
        narrowed = type(node)(**{**vars(node), "names": names}) if len(names) < len(node.names) else None
        return ast.unparse(narrowed) + "\n" if narrowed else "".join(lines[node.lineno - 1:node.end_lineno])
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    text = lines[first - 1:node.end_lineno]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name not in public \
            and _is_docstring(node.body[0]) and len(node.body) > 1:
        docstring = node.body[0]
        del text[docstring.lineno - first:docstring.end_lineno - first + 1]
    return "".join(text)


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
    lines += ["", "[grading]", f"carry_forward = {text(course.grading.carry_forward)}", "",
              "[feedback]", f"locate = {text(course.feedback.locate)}", "", "[data]"]
    lines += [f"{key} = {text(value)}" for key, value in course.data.items()]
    for exercise in exercises:
        public = exercise.public_checks
        lines += ["", "[[exercise]]", f"id = {text(exercise.id)}", f"title = {text(exercise.title)}",
                  f"module = {text(exercise.module)}",
                  f"depends_on = {text([d for d in exercise.depends_on if d in ids])}",
                  f"functions = {text(list(exercise.functions))}",
                  f"points = {text(sum(c.points for c in public))}", "checks = ["]
        if exercise.settings:
            settings = ", ".join(f"{k} = {text(v)}" for k, v in exercise.settings.items())
            lines.insert(-1, "settings = { " + settings + " }")
        lines += [f"  {{ test = {text(c.test)}, points = {text(c.points)}, public = true }}," for c in public]
        lines.append("]")
    return "\n".join(lines) + "\n"


def uv_project(course: Course, wheel: Path) -> str:
    """A pyproject.toml that makes the handout a uv project: the wheel beside it as a path dependency, the
    same pins as requirements.txt, and torch from PyTorch's CPU index on Linux and Windows (PyPI's is the
    multi-GB CUDA build there; these exercises need no GPU). Not a package: uv installs what it needs only."""
    def text(value: str) -> str:
        return json.dumps(value, ensure_ascii=False)

    dependencies = ", ".join(text(pin) for pin in ["attnkit", *pinned_requirements()])
    name = "-".join(re.findall(r"[a-z0-9]+", course.lesson.lower())) or "lesson"  # PEP 508: ASCII only
    return f"""# The handout as a uv project: `uv run attnkit check`, then `uv run attnkit submit --student YOUR_ID`.
# The first `uv run` makes .venv and uv.lock here. pip users: requirements.txt holds the same pins.
[project]
name = {text(name + "-exercises")}
version = "0"
requires-python = ">=3.11"
dependencies = [{dependencies}]

[tool.uv]
package = false

[tool.uv.sources]
attnkit = {{ path = {text(wheel.name)} }}
torch = [{{ index = "pytorch-cpu", marker = "sys_platform != 'darwin'" }}]  # macOS: PyPI's, CPU already

[[tool.uv.index]]
name = "pytorch-cpu"
url = {text(TORCH_CPU_INDEX)}
explicit = true
"""


def student_readme(course: Course, pins: list[str]) -> str:
    """The handout's README: one command for each place a student works (a venv with pip, a uv project, a
    notebook, a hosted notebook with torch already there), then what to fill in, how to check it, how to hand it in."""
    rows = "\n".join(f"| {i} | `{e.id}` | `exercises/{e.module}.py` | {e.title} |"
                     for i, e in enumerate(course.exercises, 1))
    torch = next((pin for pin in pins if pin.lower().startswith("torch==")), "torch")
    names = [pin.split("==")[0] for pin in pins]
    dependencies = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names)
    first = course.exercises[0].id
    return f"""# {course.lesson}: exercises

{course.name}.

## Install: one command for where you work

You need Python 3.11 or newer (on Windows, use WSL). Each route installs `attnkit` (the wheel in this
folder: the checking kit, no solutions) and the versions of {dependencies} your checks were recorded with.

**A terminal, with pip.** In this folder, in a virtual environment of its own
(`python3 -m venv .venv`, then `source .venv/bin/activate`):

    {INSTALL}

**A terminal, with uv.** This folder is a uv project (`{UV_PROJECT}`): nothing to install first, the
first `uv run` makes `.venv` here. Put `uv run` before every command below:

    uv run attnkit check

(In a uv virtual environment you made yourself: `uv pip install -r {REQUIREMENTS}`.)

**A notebook on your machine.** Start Jupyter in this folder; in the notebook's first cell:

    %pip install -r {REQUIREMENTS}

**A hosted notebook with torch already there (Colab, Kaggle).** Upload this folder, go into it
(`%cd` and the folder's name), then in a cell:

    %pip install -r {KEEP_TORCH}

This keeps the torch that is installed (2.2 or later) and pins the rest. If yours is not `{torch}`,
the check says so once; answers are compared within a tolerance, so the verdicts hold.

### torch on Linux: CUDA or CPU

On Linux, PyPI's `{torch}` is the CUDA build: several GB, in about 20 packages. These exercises
need none of it. With pip, install PyTorch's CPU-only build (about 200 MB) first, then the command
above, which keeps it:

    python3 -m pip install {torch} --index-url {TORCH_CPU_INDEX}

The uv route takes torch from PyTorch's CPU index on Linux and Windows already. On macOS, PyPI's
torch is the CPU build. The rest takes a minute or two.

## Fill in the exercises

Fill in the TODOs of each module in `exercises/`, in this order:

| # | exercise | file | what you write |
|---|---|---|---|
{rows}

Each TODO says what to compute, with the shapes, and which section of the lesson to reread.

## Check your work

In a terminal (with uv: `uv run attnkit check`):

    attnkit check              # every exercise
    {f"attnkit check {first}":<27}# one exercise
    attnkit check --json       # the same, as JSON

In a notebook cell, in this folder (save your edits to the `.py` files first: each check reads them afresh):

    from attnkit import check, hint
    check("{first}")          # a table of its public checks; check() for every exercise
    hint("{first}")           # the hints of the checks that failed

Each line is one check: ✓ passed, ✗ failed with the mistake the kit recognised and a hint.
These are the public checks, on the lesson's own numbers. When your work is graded, hidden checks
also run: fresh random inputs, batches, non-square grids, float64, large scores. Passing every public
check is a good sign, not a guarantee.

## Hand it in

    attnkit submit --student YOUR_ID

This packs `exercises/` into `YOUR_ID.zip`; upload that file. From a notebook cell, after `import sys`:
`!{{sys.executable}} -m attnkit submit --student YOUR_ID`.
"""
