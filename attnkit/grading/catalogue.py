"""The mistake catalogue (graders/mistakes/*.toml): every known mistake as data.

A mistake has an id, the exercise it belongs to ("*" for the generic ones),
an explanation in the lesson's words and a hint. How it is recognised:
- by the exercise's mistake model (`graders/mistakes/<exercise>.py`), which
  computes what the mistake computes however it is written;
- `forbid`: names whose use in the exercise's source is the mistake (decided
  from the submitted source, in the grader: `source_rules`);
- `signature`: a generic sign the engine knows: "batch-only" (right on one
  grid, wrong with batch dimensions in front), "overflow-only" (non-finite on
  large inputs, right on the same input made small);
- `evidence`: what the mistake's code looks like (regular expressions matched
  against the exercise's source, read in the grader: `source_evidence`), for a
  mistake known only from a crash its code would make too: named where the
  source shows it, never from the crash alone;
- otherwise its grader names it (`attempt.report`), from structure or rules.
`variants` (edits to the reference that reproduce it) are the kit's own test
cases: every one must be named as this mistake.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from attnkit.config import read_toml
from attnkit.errors import KitError
from attnkit.grading.engine_ids import ENGINE_IDS

GENERIC = "*"
SIGNATURES = ("batch-only", "overflow-only")
KEYS = {"exercise", "summary", "explanation", "hint", "variants", "forbid", "signature", "evidence"}


@dataclass(frozen=True)
class Variant:
    """Text edits to one module of the reference: each (old, new) must occur in it."""

    module: str
    edits: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Mistake:
    id: str
    exercise: str
    summary: str
    explanation: str
    hint: str
    variants: tuple[Variant, ...] = ()
    forbid: tuple[str, ...] = ()
    signature: str | None = None
    evidence: tuple[str, ...] = ()

    @property
    def generic(self) -> bool:
        return self.exercise == GENERIC


class Catalogue:
    """All mistakes, looked up by id or by exercise."""

    def __init__(self, mistakes: list[Mistake]):
        self.mistakes = {m.id: m for m in mistakes}

    def __getitem__(self, mistake_id: str) -> Mistake:
        return self.mistakes[mistake_id]

    def __contains__(self, mistake_id: str) -> bool:
        return mistake_id in self.mistakes

    def for_exercise(self, exercise_id: str) -> list[Mistake]:
        return [m for m in self.mistakes.values() if m.exercise == exercise_id]

    def ids_for(self, exercise_id: str) -> set[str]:
        """The ids of the exercise's own mistakes (the generic ones belong to no exercise)."""
        return {m.id for m in self.for_exercise(exercise_id)}

    def with_signature(self, signature: str, exercises: list[str]) -> list[Mistake]:
        return [m for m in self.mistakes.values() if m.signature == signature and m.exercise in exercises]

    def with_variants(self) -> list[Mistake]:
        return [m for m in self.mistakes.values() if m.variants]


def load_catalogue(folder: Path) -> Catalogue:
    """Read every *.toml of the catalogue folder; a malformed entry is refused naming its key."""
    files = sorted(Path(folder).glob("*.toml"))
    if not files:
        raise KitError(f"{folder}: no mistake files (*.toml) in the catalogue folder")
    mistakes: dict[str, Mistake] = {}
    for path in files:
        data = read_toml(path)
        for mistake_id, entry in data.get("mistake", {}).items():
            if mistake_id in mistakes:
                raise KitError(f"{path}: mistake.{mistake_id}: defined twice")
            mistakes[mistake_id] = _read_mistake(path, mistake_id, entry)
    missing = [m for m in ENGINE_IDS if m not in mistakes]
    if missing:
        raise KitError(f"{folder}: the catalogue has no words for {', '.join(missing)}, which the kit names itself "
                       f"(copy common.toml from the kit's own course and adapt its words)")
    return Catalogue(list(mistakes.values()))


def _read_mistake(path: Path, mistake_id: str, entry: dict[str, Any]) -> Mistake:
    unknown = sorted(set(entry) - KEYS)
    if unknown:
        raise KitError(f"{path}: mistake.{mistake_id}.{unknown[0]}: unknown key (known: {', '.join(sorted(KEYS))})")
    signature = entry.get("signature")
    if signature is not None and signature not in SIGNATURES:
        raise KitError(f"{path}: mistake.{mistake_id}.signature: {signature!r} is not one of {', '.join(SIGNATURES)}")
    forbid = entry.get("forbid", [])
    if not isinstance(forbid, list) or not all(isinstance(n, str) for n in forbid):
        raise KitError(f"{path}: mistake.{mistake_id}.forbid: expected a list of names")
    evidence = entry.get("evidence", [])
    if not isinstance(evidence, list) or not all(isinstance(n, str) for n in evidence):
        raise KitError(f"{path}: mistake.{mistake_id}.evidence: expected a list of regular expressions")
    for pattern in evidence:
        try:
            re.compile(pattern)
        except re.error as error:
            raise KitError(f"{path}: mistake.{mistake_id}.evidence: {pattern!r} is no regular expression: "
                           f"{error}") from None

    def need(key: str) -> str:
        value = entry.get(key)
        if not isinstance(value, str) or not value.strip():
            raise KitError(f"{path}: mistake.{mistake_id}.{key}: missing or not a string")
        return " ".join(value.split())

    variants = []
    for index, variant in enumerate(entry.get("variants", [])):
        edits = variant.get("edits", [])
        if not isinstance(variant.get("module"), str) or not edits or not all(
            isinstance(e, list) and len(e) == 2 and all(isinstance(s, str) for s in e) for e in edits
        ):
            raise KitError(f"{path}: mistake.{mistake_id}.variants[{index}]: needs module and edits [[old, new], ...]")
        variants.append(Variant(module=variant["module"], edits=tuple((old, new) for old, new in edits)))
    return Mistake(
        id=mistake_id,
        exercise=need("exercise"),
        summary=need("summary"),
        explanation=need("explanation"),
        hint=need("hint"),
        variants=tuple(variants),
        forbid=tuple(forbid),
        signature=signature,
        evidence=tuple(evidence),
    )


def markdown_table(catalogue: Catalogue, exercise_order: list[str]) -> str:
    """The table of mistakes in docs/diagnosis.md, generic ones first, then by exercise."""
    order = {GENERIC: -1, **{e: i for i, e in enumerate(exercise_order)}}
    rows = ["| exercise | mistake id | what the student probably did |", "|---|---|---|"]
    for mistake in sorted(catalogue.mistakes.values(), key=lambda m: order.get(m.exercise, len(order))):
        exercise = "every exercise" if mistake.generic else f"`{mistake.exercise}`"
        rows.append(f"| {exercise} | `{mistake.id}` | {mistake.summary} |")
    return "\n".join(rows)


if __name__ == "__main__":
    import sys

    from attnkit.config import find_course_file, load_course

    course = load_course(find_course_file(Path.cwd()))
    sys.stdout.write(markdown_table(load_catalogue(course.mistakes_dir), course.ids) + "\n")
