"""A student's self-check: the public checks on the `exercises` package of their folder.

What `attnkit check` does, below the command line. The package is copied into a scratch folder
first (only its module files), so nothing else in the student's folder reaches the checks; paths
in the messages are shown relative to it (`exercises/softmax.py`).
"""
from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from attnkit.config import PACKAGE, find_course_file, load_course
from attnkit.errors import KitError
from attnkit.grading.results import ResultError, SubmissionResult
from attnkit.redaction import PathScrubber
from attnkit.submissions import prepare

NOTE = "public checks only; hidden checks run at grading"


@dataclass
class SelfCheck:
    """The public checks' verdicts on one student's package."""

    result: SubmissionResult

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
                "output": record["output"], "note": NOTE}

    @classmethod
    def from_json(cls, record: Any) -> SelfCheck:
        """What `check --json` printed, read back (the notebook's self-check), or ResultError naming the field."""
        if not isinstance(record, dict):
            raise ResultError("attnkit check --json: not a JSON object")
        fields = {"exercises": record.get("exercises"), "output": record.get("output")}
        return cls(SubmissionResult.from_json({"student": "you", "problem": "", "fingerprint": "", **fields},
                                              "attnkit check --json"))


def check_folder(folder: Path, exercise_ids: Sequence[str] = ()) -> SelfCheck:
    """Run the public checks (of the exercises named, or all) on `folder/exercises`."""
    from attnkit.grading.plugin import Submission
    from attnkit.grading.session import run_checks

    folder = Path(folder).absolute()
    course = load_course(find_course_file(folder))
    if not (folder / PACKAGE).is_dir():
        raise KitError(f"{folder}: no `{PACKAGE}` folder here (run this in your handout folder)")
    with tempfile.TemporaryDirectory(prefix="attnkit-check-") as scratch:
        prepared = prepare(folder, Path(scratch))
        if prepared.problem:
            raise KitError(prepared.problem)
        [result] = run_checks(course, [Submission("you", Path(scratch))], exercise_ids=list(exercise_ids) or None,
                              public_only=True)
        return SelfCheck(PathScrubber([scratch, folder]).result(result))
