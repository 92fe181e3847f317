"""Buggy packages made from the reference by a mistake's edits.

The same packages serve the diagnosis (their answers are compared with the
student's) and the kit's own tests (copied as a student's `exercises`).
"""
from __future__ import annotations

import shutil
from pathlib import Path

from attnkit.errors import KitError
from attnkit.grading.catalogue import Mistake, Variant


def apply_variant(reference_dir: Path, variant: Variant) -> str:
    """The variant's source of its module; an edit that no longer applies is a catalogue bug."""
    path = Path(reference_dir) / f"{variant.module}.py"
    source = path.read_text(encoding="utf-8")
    for old, new in variant.edits:
        if old not in source:
            raise KitError(f"{path}: a variant edit no longer applies: {old!r} is not in the reference")
        source = source.replace(old, new)
    return source


def write_variant_package(reference_dir: Path, variant: Variant, target: Path) -> Path:
    """Copy the reference package to `target` with the variant's edits applied."""
    target = Path(target)
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(reference_dir, target, ignore=shutil.ignore_patterns("__pycache__"))
    (target / f"{variant.module}.py").write_text(apply_variant(reference_dir, variant), encoding="utf-8")
    return target


def variant_name(mistake: Mistake, index: int) -> str:
    """A package name for a mistake's variant, unique in the grader's process."""
    return "attnkit_variant_" + mistake.id.replace("-", "_") + f"_{index}"
