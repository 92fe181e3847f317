"""Helpers the kit's tests share: where things are, and how to build a submission."""
from __future__ import annotations

import shutil
from pathlib import Path

from attnkit.config import Course, load_course
from attnkit.grading.catalogue import Variant, load_catalogue
from attnkit.grading.variants import write_variant_package

REPO = Path(__file__).resolve().parents[1]
SUBMISSIONS = Path(__file__).resolve().parent / "submissions"
COURSE = load_course(REPO / "course.toml")
CATALOGUE = load_catalogue(COURSE.mistakes_dir)


def reference_submission(target: Path) -> Path:
    """A submission folder whose `exercises` is the reference."""
    shutil.copytree(COURSE.solutions_dir, target / "exercises", ignore=shutil.ignore_patterns("__pycache__"))
    return target


def stub_submission(target: Path) -> Path:
    """A submission folder holding the untouched stubs."""
    shutil.copytree(COURSE.exercises_dir, target / "exercises", ignore=shutil.ignore_patterns("__pycache__"))
    return target


def overlay_submission(target: Path, overlay: Path) -> Path:
    """The reference with the overlay folder's modules in place of its own."""
    reference_submission(target)
    for module in overlay.glob("*.py"):
        shutil.copy(module, target / "exercises" / module.name)
    return target


def variant_submission(target: Path, variant: Variant) -> Path:
    """The reference with one catalogued variant's edits applied."""
    write_variant_package(COURSE.solutions_dir, variant, target / "exercises")
    return target


def exercise_of_module(course: Course, module: str) -> str:
    return next(e.id for e in course.exercises if e.module == module)
