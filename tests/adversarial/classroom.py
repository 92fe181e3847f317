"""Building a hostile class and grading it through the real `attnkit grade`, for the adversarial tests.

A class is graded on a copy of the course with tighter limits (so a quick test, and a sandbox that
failed could only damage the copy), by `leftovers.py`, which reports the exit status, the output byte
for byte, the wall time, the grader's peak memory and every process left behind.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from attnkit.sandbox import isolation
from kit import CATALOGUE, COURSE, exercise_of_module, overlay_submission, reference_submission

HERE = Path(__file__).resolve().parent
FORGERY = HERE / "forgery.py"
# Seconds after grading for a delayed attack to strike, in a class that holds one (the detached rewriter
# sleeps 4); where none is, a moment for what the sandboxes left to be re-parented and counted.
SETTLE = 6.0
NO_DELAYED_ATTACK = 1.0
TIGHT_SETTINGS = {
    "call_timeout": 3,  # the infinite loop costs this, not course.toml's ten
    "memory_limit_mb": 1200,  # the memory bomb fills this much (torch alone maps 700 MB), not 2048
}
MAX_FEEDBACK_BYTES = 1 << 20  # no file the kit writes for one student may be larger
NEEDS_SANDBOX = [pytest.mark.slow,
                 pytest.mark.skipif(isolation.probe() is not None, reason=f"no sandbox: {isolation.probe()}")]


def overlays(folder: Path) -> list[str]:
    """The names of the overlay folders in `folder`, sorted."""
    return sorted(p.name for p in folder.iterdir() if p.is_dir())


def digest(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}


def honest_submission(target: Path, overlay: Path | None) -> Path:
    """The reference, with the overlay's modules when there is one."""
    return reference_submission(target) if overlay is None else overlay_submission(target, overlay)


def hostile_submission(target: Path, overlay: Path, marker: str) -> Path:
    """The reference with the overlay's modules, a marker naming this run, and the forgery toolkit."""
    overlay_submission(target, overlay)
    (target / "exercises" / "marker.py").write_text(f"NAME = {marker!r}\n")
    shutil.copy(FORGERY, target / "exercises" / FORGERY.name)
    return target


def attacked_exercises(overlay: Path) -> list[str]:
    """The exercises an overlay `<reason>--<label>/` must fail with `<reason>`.

    A catalogued mistake of one exercise (softmax-builtin) names that exercise, whatever modules the
    overlay replaces to reach it; a generic reason (crash, exited, timeout, malformed-reply, ...) names
    every exercise whose module the overlay replaces.
    """
    reason = overlay.name.split("--")[0]
    if reason in CATALOGUE and not CATALOGUE[reason].generic:
        return [CATALOGUE[reason].exercise]
    modules = {p.stem for p in overlay.glob("*.py")} & {e.module for e in COURSE.exercises}
    return sorted(exercise_of_module(COURSE, module) for module in modules)


def grade(course: Path, submissions: Path, out: Path, *args: str, env: dict | None = None,
          settle: float = SETTLE) -> dict:
    """`attnkit grade` as an instructor runs it, watched by leftovers.py; its report, whatever the exit status."""
    command = [sys.executable, str(HERE / "leftovers.py"), str(settle),
               "attnkit", "grade", str(submissions), "--out", str(out), *args]
    run = subprocess.run(command, cwd=course, capture_output=True, text=True, timeout=900,
                         env={**os.environ, **(env or {})})
    assert run.returncode == 0, run.stderr  # the watcher itself
    return json.loads(run.stdout)


def feedback(out: Path, student: str) -> dict:
    return json.loads((out / "feedback" / f"{student}.json").read_text(encoding="utf-8"))


def feedback_by_student(out: Path) -> dict[str, dict]:
    """Every feedback record, by the student id inside it (a file's name may be a shortened id)."""
    records = {}
    for path in sorted((out / "feedback").glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        records[record["student"]] = record
    return records


def verdicts(record: dict) -> dict:
    """Every check's verdict and points (not its wording: hidden inputs, so the numbers quoted, differ a run)."""
    return {exercise_id: [(c["name"], c["passed"], c["points"], c["mistake"]) for c in exercise["checks"]]
            for exercise_id, exercise in record["exercises"].items()}


def oversized_files(out: Path) -> dict[str, int]:
    """Files the kit wrote that are larger than a student's feedback may ever be."""
    return {str(p.relative_to(out)): p.stat().st_size for p in out.rglob("*")
            if p.is_file() and p.stat().st_size > MAX_FEEDBACK_BYTES}


def unreadable_files(out: Path) -> dict[str, str]:
    """Files the kit wrote that are not strict UTF-8 (and, for .json, not JSON)."""
    problems = {}
    for path in out.rglob("*"):
        if not path.is_file():
            continue
        try:
            text = path.read_bytes().decode("utf-8")
            if path.suffix == ".json":
                json.loads(text)
        except ValueError as error:
            problems[str(path.relative_to(out))] = str(error)[:200]
    return problems
