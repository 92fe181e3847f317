"""What grading produces: one typed record a check, an exercise and a student, and their one JSON form.

`SubmissionResult.to_json` writes the contract's feedback record (docs/contract.md section 4) and
`SubmissionResult.from_json` reads it back, validating every field: the parallel runner, the
gradebook, the class report and the Gradescope export all go through these two functions, so a
record has one shape wherever it travels. Scores are derived from the checks, never stored twice.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from attnkit.config import Course, check_names
from attnkit.errors import KitError


class ResultError(KitError):
    """A feedback record that is not what `to_json` writes."""


@dataclass(frozen=True)
class Location:
    """Where in the student's own code a failed check's answer first goes wrong (docs/contract.md).

    `step` is a name the course declares (its mistake model's `flaws.step`), `last_right` the step
    before it that was still right, or None. With the course's `[feedback] locate = "step"`, `file`,
    `line` and `code` are None: the step is told, the line is not. From the student's process: words only.
    """

    file: str | None
    line: int | None
    code: str | None
    step: str
    last_right: str | None

    @property
    def steps_words(self) -> str:
        """"the softmax step; the scale step before it was still right"."""
        before = f"; the {self.last_right} step before it was still right" if self.last_right else ""
        return f"the {self.step} step{before}"

    def describe(self) -> str:
        """Where it goes wrong, in plain text: `attnkit check`, Gradescope's and nbgrader's output."""
        if self.file is None or self.line is None:
            return self.steps_words[0].upper() + self.steps_words[1:] + "."
        return f"{self.file}, line {self.line}: `{self.code}` ({self.steps_words})."

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "code": self.code, "step": self.step,
                "last_right": self.last_right}

    @classmethod
    def from_json(cls, record: Any, where: str) -> Location:
        fields = _Fields(record, where)
        return cls(fields.optional_text("file"), fields.optional_line("line"), fields.optional_text("code"),
                   fields.text("step"), fields.optional_text("last_right"))
ANSWER_NUMBERS = 256  # numbers kept of one output of a wrong answer: enough to tell two computations apart


@dataclass
class WrongAnswer:
    """The numbers of an answer no catalogued mistake explains, as the grader saw them on the run's inputs.

    Kept so the class report can put together students who computed the same wrong thing (within the
    check's tolerance) without running anyone again. It holds what a student's code returned on hidden
    inputs, so it is the instructor's alone: it travels from a grading worker to the gradebook and is
    kept beside the feedback (`gradebook.ANSWERS`), never in a student's feedback record. `inputs` is
    the digest of the numbers the code was given: answers are compared only on the same inputs. Each
    output keeps at most `ANSWER_NUMBERS` numbers, taken evenly across it.
    """

    inputs: str
    shapes: list[list[int]]
    values: list[list[float | str]]  # "nan", "inf", "-inf" spelt out (JSON has no such numbers)
    rtol: float
    atol: float

    @classmethod
    def of(cls, inputs: str, arrays: list[Any], rtol: float, atol: float) -> WrongAnswer:
        import numpy as np

        shapes, values = [], []
        for array in arrays:
            flat = np.asarray(array, dtype=np.float64).ravel()
            if flat.size > ANSWER_NUMBERS:
                flat = flat[np.linspace(0, flat.size - 1, ANSWER_NUMBERS).astype(int)]
            shapes.append([int(n) for n in np.shape(array)])
            values.append([float(v) if math.isfinite(v) else str(v) for v in flat.tolist()])
        return cls(inputs, shapes, values, rtol, atol)

    def to_json(self) -> dict[str, Any]:
        return {"inputs": self.inputs, "shapes": self.shapes, "values": self.values, "rtol": self.rtol,
                "atol": self.atol}

    @classmethod
    def from_json(cls, record: Any, where: str) -> WrongAnswer:
        fields = _Fields(record, where)
        shapes, values = fields.items("shapes"), fields.items("values")
        if not all(isinstance(s, list) and all(isinstance(n, int) for n in s) for s in shapes):
            raise ResultError(f"{where}.shapes: expected lists of whole numbers")
        if len(values) != len(shapes) or not all(
                isinstance(v, list) and all(isinstance(x, (int, float)) or x in ("nan", "inf", "-inf") for x in v)
                for v in values):
            raise ResultError(f"{where}.values: expected a list of numbers an output")
        return cls(fields.text("inputs"), shapes, values, fields.number("rtol"), fields.number("atol"))


@dataclass
class CheckResult:
    """One check's verdict.

    `mistakes` lists every mistake the check found (the first is the main one); `carried_from`
    names the exercises whose mistakes this check was spared under error carried forward: it
    passed when those exercises' functions were replaced by correct stand-ins.
    """

    name: str
    test: str
    public: bool
    passed: bool
    points: float
    max_points: float
    mistakes: list[str] = field(default_factory=list)
    message: str = ""
    hint: str = ""
    carried_from: list[str] = field(default_factory=list)
    location: Location | None = None
    answer: WrongAnswer | None = None  # the numbers, where no catalogued mistake explains them

    @property
    def mistake(self) -> str | None:
        """The main mistake, or None for a passed check."""
        return self.mistakes[0] if self.mistakes else None

    def to_json(self, *, answers: bool = False) -> dict[str, Any]:
        """The check's record; with `answers`, also its wrong answer's numbers (between trusted processes only)."""
        record = {"name": self.name, "test": self.test, "public": self.public, "passed": self.passed,
                  "points": self.points, "max_points": self.max_points, "mistake": self.mistake,
                  "mistakes": list(self.mistakes), "message": self.message, "hint": self.hint,
                  "carried_from": list(self.carried_from),
                  **({"location": self.location.to_json()} if self.location is not None else {})}
        if answers and self.answer is not None:
            record["answer"] = self.answer.to_json()
        return record

    @classmethod
    def from_json(cls, record: Any, where: str) -> CheckResult:
        fields = _Fields(record, where)
        location = Location.from_json(record["location"], f"{where}.location") if "location" in record else None
        answer = record.get("answer")
        return cls(name=fields.text("name"), test=fields.text("test"), public=fields.flag("public"),
                   passed=fields.flag("passed"), points=fields.number("points"),
                   max_points=fields.number("max_points"), mistakes=fields.texts("mistakes"),
                   message=fields.text("message"), hint=fields.text("hint"),
                   carried_from=fields.texts("carried_from"), location=location,
                   answer=None if answer is None else WrongAnswer.from_json(answer, f"{where}.answer"))


@dataclass
class ExerciseResult:
    """One exercise's checks; its score, mistakes and carried_from are derived from them."""

    id: str
    max_score: float
    checks: list[CheckResult] = field(default_factory=list)

    @property
    def score(self) -> float:
        return sum(c.points for c in self.checks)

    @property
    def mistakes(self) -> list[str]:
        """Every mistake found by any check, in the order first found."""
        return _union(c.mistakes for c in self.checks)

    @property
    def carried_from(self) -> list[str]:
        return _union(c.carried_from for c in self.checks)

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)

    def to_json(self, *, answers: bool = False) -> dict[str, Any]:
        return {"score": self.score, "max_score": self.max_score, "mistakes": self.mistakes,
                "carried_from": self.carried_from, "checks": [c.to_json(answers=answers) for c in self.checks]}

    @classmethod
    def from_json(cls, exercise_id: str, record: Any, where: str) -> ExerciseResult:
        fields = _Fields(record, where)
        checks = [CheckResult.from_json(c, f"{where}.checks[{i}]") for i, c in enumerate(fields.items("checks"))]
        return cls(exercise_id, fields.number("max_score"), checks)


@dataclass
class SubmissionResult:
    """One student's grade. `problem` is set when the submission could not be graded at all."""

    student: str
    exercises: dict[str, ExerciseResult]
    problem: str = ""
    output: str = ""
    fingerprint: str = ""
    code: dict[str, str] = field(default_factory=dict)  # exercise -> reduced-code digest (shared_code); no JSON

    @property
    def score(self) -> float:
        return sum(e.score for e in self.exercises.values())

    @property
    def max_score(self) -> float:
        return sum(e.max_score for e in self.exercises.values())

    def to_json(self, *, answers: bool = False) -> dict[str, Any]:
        """The contract's feedback record (plus `problem`, `output` and `fingerprint`); `answers` adds the
        numbers of wrong answers no mistake explains, for the record a worker sends the gradebook alone."""
        return {"student": self.student, "score": self.score, "max_score": self.max_score,
                "problem": self.problem,
                "exercises": {e_id: e.to_json(answers=answers) for e_id, e in self.exercises.items()},
                "output": self.output, "fingerprint": self.fingerprint}

    @classmethod
    def from_json(cls, record: Any, where: str = "feedback") -> SubmissionResult:
        """The record `to_json` wrote, or ResultError naming the first field that is not."""
        fields = _Fields(record, where)
        exercises_record = fields.table("exercises")
        exercises = {e_id: ExerciseResult.from_json(e_id, e, f"{where}.exercises.{e_id}")
                     for e_id, e in exercises_record.items()}
        return cls(student=fields.text("student"), exercises=exercises, problem=fields.text("problem"),
                   output=fields.text("output"), fingerprint=fields.text("fingerprint"))


def _union(lists) -> list[str]:
    found: list[str] = []
    for items in lists:
        found += [item for item in items if item not in found]
    return found


class _Fields:
    """Typed reads of one JSON object, each naming the field it refuses."""

    def __init__(self, record: Any, where: str):
        if not isinstance(record, dict):
            raise ResultError(f"{where}: expected an object")
        self.record, self.where = record, where

    def _get(self, key: str, kind: type | tuple[type, ...], what: str) -> Any:
        value = self.record.get(key)
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise ResultError(f"{self.where}.{key}: expected {what}")
        return value

    def text(self, key: str) -> str:
        return self._get(key, str, "a string")

    def optional_text(self, key: str) -> str | None:
        return None if self.record.get(key) is None else self.text(key)

    def optional_line(self, key: str) -> int | None:
        value = self.record.get(key)
        if value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ResultError(f"{self.where}.{key}: expected a line number")
        return value

    def flag(self, key: str) -> bool:
        return self._get(key, bool, "true or false")

    def number(self, key: str) -> float:
        value = float(self._get(key, (int, float), "a number"))
        if not math.isfinite(value):
            raise ResultError(f"{self.where}.{key}: expected a finite number")
        return value

    def items(self, key: str) -> list[Any]:
        return self._get(key, list, "a list")

    def texts(self, key: str) -> list[str]:
        values = self.items(key)
        if not all(isinstance(v, str) for v in values):
            raise ResultError(f"{self.where}.{key}: expected a list of strings")
        return list(values)

    def table(self, key: str) -> dict[str, Any]:
        return self._get(key, dict, "an object")


def zero_results(course: Course, problem: str, *, mistake: str | None = None,
                 tests: dict[str, list[str]] | None = None) -> dict[str, ExerciseResult]:
    """Zeros on the given checks of every exercise (all of them if `tests` is None), each saying why.

    The one builder of all-zero results (a submission that cannot be graded, a reply that cannot be
    trusted): each check is named as a graded one is, by its docstring (`config.check_name`)."""
    exercises = {}
    for exercise in course.exercises:
        if tests is not None and exercise.id not in tests:
            continue
        names = check_names(course.grader_file(exercise))
        checks = [CheckResult(names.get(c.test, c.test), c.test, c.public, passed=False, points=0.0,
                              max_points=c.points, mistakes=[mistake] if mistake else [], message=problem)
                  for c in exercise.checks if tests is None or c.test in tests[exercise.id]]
        exercises[exercise.id] = ExerciseResult(exercise.id, sum(c.max_points for c in checks), checks)
    return exercises
