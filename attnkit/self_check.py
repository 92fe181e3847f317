"""A student's self-check: the public checks on the `exercises` package of their folder.

What `attnkit check` does, below the command line. The package is copied into a scratch folder
first (only its module files), so nothing else in the student's folder reaches the checks; paths
in the messages are shown relative to it (`exercises/softmax.py`).
"""
from __future__ import annotations

import json
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from attnkit.config import PACKAGE, Course, find_course_file, load_course
from attnkit.distribution import installed_version
from attnkit.errors import KitError
from attnkit.grading.results import ResultError, SubmissionResult
from attnkit.redaction import PathScrubber
from attnkit.submissions import prepare

NOTE = "public checks only; hidden checks run at grading"
HANDOUT_FOLDER = "run this in your handout folder, the one holding course.toml and exercises/"
RECORDED_WITH = "recorded_with.json"  # beside a handout's recorded answers: the torch they were recorded with


@dataclass
class SelfCheck:
    """The public checks' verdicts on one student's package."""

    result: SubmissionResult
    notes: tuple[str, ...] = ()  # said once per run, below the checks: a torch other than the recorded one

    @property
    def total(self) -> int:
        return sum(len(e.checks) for e in self.result.exercises.values())

    @property
    def failed(self) -> int:
        return sum(not c.passed for e in self.result.exercises.values() for c in e.checks)

    def to_json(self) -> dict[str, Any]:
        """What `check --json` prints: the exercises as in feedback, the counts, what the code printed."""
        record = self.result.to_json()
        return {"exercises": record["exercises"], "passed": self.total - self.failed, "failed": self.failed,
                "output": record["output"], "note": NOTE, "notes": list(self.notes)}

    @classmethod
    def from_json(cls, record: Any) -> SelfCheck:
        """What `check --json` printed, read back (the notebook's self-check), or ResultError naming the field."""
        if not isinstance(record, dict):
            raise ResultError("attnkit check --json: not a JSON object")
        fields = {"exercises": record.get("exercises"), "output": record.get("output")}
        notes = record.get("notes", [])
        if not (isinstance(notes, list) and all(isinstance(note, str) for note in notes)):
            raise ResultError("attnkit check --json: notes: expected a list of strings")
        return cls(SubmissionResult.from_json({"student": "you", "problem": "", "fingerprint": "", **fields},
                                              "attnkit check --json"), tuple(notes))


def check_folder(folder: Path, exercise_ids: Sequence[str] = ()) -> SelfCheck:
    """Run the public checks (of the exercises named, or all) on `folder/exercises`."""
    from attnkit.grading.plugin import Submission
    from attnkit.grading.session import run_checks

    folder = Path(folder).absolute()
    course = load_course(find_course_file(folder, HANDOUT_FOLDER))
    if not (folder / PACKAGE).is_dir():
        raise KitError(f"{folder}: no `{PACKAGE}` folder here ({HANDOUT_FOLDER})")
    with tempfile.TemporaryDirectory(prefix="attnkit-check-") as scratch:
        prepared = prepare(folder, Path(scratch))
        if prepared.problem:
            raise KitError(prepared.problem)
        [result] = run_checks(course, [Submission("you", Path(scratch))], exercise_ids=list(exercise_ids) or None,
                              public_only=True)
        return SelfCheck(PathScrubber([scratch, folder]).result(result), tuple(filter(None, [torch_note(course)])))


def torch_note(course: Course) -> str:
    """A sentence when the torch installed here is not the one a handout's answers were recorded with."""
    path = course.graders_dir / RECORDED_WITH
    if not path.is_file():
        return ""  # the course repo: answers come from the reference, on this torch
    try:
        recorded = json.loads(path.read_text(encoding="utf-8"))["torch"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise KitError(f"{path}: cannot read the torch the checks were recorded with: {error!r}") from None
    installed = installed_version("torch")
    if installed is None or installed == recorded:
        return ""
    return (f"Note: your torch is {installed}; these checks were recorded with torch {recorded}. Answers are "
            "compared within a tolerance, so the verdicts hold.")
