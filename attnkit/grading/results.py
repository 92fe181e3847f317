"""What grading produces: plain records, turned into the contract's JSON by `as_dict`."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class CheckResult:
    name: str
    test: str
    public: bool
    passed: bool
    points: float
    max_points: float
    mistake: str | None = None
    message: str = ""
    hint: str = ""


@dataclass
class ExerciseResult:
    id: str
    max_score: float
    checks: list[CheckResult] = field(default_factory=list)

    @property
    def score(self) -> float:
        return sum(c.points for c in self.checks)

    @property
    def mistakes(self) -> list[str]:
        found: list[str] = []
        for check in self.checks:
            if check.mistake and check.mistake not in found:
                found.append(check.mistake)
        return found

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)


@dataclass
class SubmissionResult:
    """One student's grade. `problem` is set when the submission could not be graded at all."""

    student: str
    exercises: dict[str, ExerciseResult]
    problem: str = ""
    output: str = ""
    fingerprint: str = ""

    @property
    def score(self) -> float:
        return sum(e.score for e in self.exercises.values())

    @property
    def max_score(self) -> float:
        return sum(e.max_score for e in self.exercises.values())

    def as_dict(self) -> dict[str, Any]:
        """The contract's feedback JSON (plus `problem`, `hint`, `mistake` and `output`)."""
        return {
            "student": self.student,
            "score": self.score,
            "max_score": self.max_score,
            "problem": self.problem,
            "exercises": {
                exercise_id: {
                    "score": exercise.score,
                    "max_score": exercise.max_score,
                    "mistakes": exercise.mistakes,
                    "checks": [_check_dict(c) for c in exercise.checks],
                }
                for exercise_id, exercise in self.exercises.items()
            },
            "output": self.output,
            "fingerprint": self.fingerprint,
        }


def _check_dict(check: CheckResult) -> dict[str, Any]:
    record = asdict(check)
    del record["max_points"]
    return record
