"""The class report: how a graded class did, as `report.json` and one self-contained `report.html`.

Built from the gradebook's feedback records alone (a pure function of the results), so
`attnkit report OUT` can write it again at any time. The page needs nothing but a browser, offline:
the plots are inline SVG, the styles inline, no script (`class_report_page` draws it).
"""
from __future__ import annotations

import json
import math
import statistics
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from attnkit.class_report_page import render_html
from attnkit.config import Course
from attnkit.errors import KitError
from attnkit.gradebook import FEEDBACK, Gradebook, write_atomically
from attnkit.grading.catalogue import load_catalogue
from attnkit.grading.results import SubmissionResult
from attnkit.reports import plural
from attnkit.shared_code import SharedCode, shared_code
from attnkit.unexplained import UnexplainedGroup, group_unexplained

REPORT_JSON = "report.json"
REPORT_HTML = "report.html"
LOWEST_SHOWN = 10  # students listed for office hours


@dataclass
class CheckSummary:
    """One check over the class: how many failed it, and the mistakes behind those failures (most first)."""

    exercise: str
    test: str
    name: str
    failed: int
    graded: int
    mistakes: list[tuple[str, int]]

    @property
    def failure_rate(self) -> float:
        return self.failed / self.graded if self.graded else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"exercise": self.exercise, "test": self.test, "name": self.name, "failed": self.failed,
                "graded": self.graded, "mistakes": [{"id": m, "count": n} for m, n in self.mistakes]}


@dataclass
class LowScorer:
    """A student among the lowest totals, with the first mistake found in their work (None if none was)."""

    student: str
    score: float
    first_mistake: str | None
    exercise: str | None

    def to_json(self) -> dict[str, Any]:
        return {"student": self.student, "score": self.score, "first_mistake": self.first_mistake,
                "exercise": self.exercise}


@dataclass
class Mistake:
    """One mistake in one exercise: how many students made it, and who."""

    id: str
    students: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.students)


@dataclass
class ExerciseSummary:
    id: str
    title: str
    max_score: float
    scores: list[float]
    mistakes: list[Mistake]
    unexplained: list[UnexplainedGroup] = field(default_factory=list)  # largest first

    @property
    def unexplained_groups(self) -> list[UnexplainedGroup]:
        """The groups of two students or more (groups of one are listed apart, briefly)."""
        return [g for g in self.unexplained if g.size > 1]

    @property
    def unexplained_alone(self) -> list[UnexplainedGroup]:
        return [g for g in self.unexplained if g.size == 1]

    @property
    def mean(self) -> float:
        return statistics.fmean(self.scores) if self.scores else 0.0

    @property
    def full_marks(self) -> int:
        return sum(math.isclose(s, self.max_score) for s in self.scores)


@dataclass(frozen=True)
class ClassCounts:
    """How many students a gradebook holds, and how many of them were graded, broken, handed in twice:
    the one set of numbers the terminal, grades.csv (a row a student) and the report all give."""

    students: int = 0
    graded: int = 0  # graded from their code (rows of zeros for a broken submission excepted)
    broken: int = 0  # could not be graded: a row of zeros and the reason
    duplicates: int = 0  # ids that came with more than one submission (the most recent was graded)

    @classmethod
    def of(cls, gradebook: Gradebook) -> ClassCounts:
        return cls.count(gradebook.results.values(), gradebook.duplicates)

    @classmethod
    def count(cls, results: Iterable[SubmissionResult], duplicates: dict[str, list[str]]) -> ClassCounts:
        problems = [r.problem for r in results]  # read once: `results` may be a one-pass iterable
        broken = sum(1 for problem in problems if problem)
        students = len(problems)
        return cls(students, students - broken, broken, len(duplicates))

    def sentence(self) -> str:
        """The counts in words, as the terminal and the report page say them."""
        said = f"{plural(self.students, 'student')}, {self.graded} graded and {self.broken} broken (zeros)"
        if self.duplicates:
            said += f", {plural(self.duplicates, 'id')} with two or more submissions (the most recent graded)"
        return said

    def to_json(self) -> dict[str, int]:
        return {"students": self.students, "graded": self.graded, "broken": self.broken,
                "duplicates": self.duplicates}


@dataclass
class ClassReport:
    course: str
    lesson: str
    max_total: float
    students: list[SubmissionResult]
    exercises: list[ExerciseSummary]
    shared_code: list[SharedCode] = field(default_factory=list)
    checks: list[CheckSummary] = field(default_factory=list)
    lowest: list[LowScorer] = field(default_factory=list)
    meanings: dict[str, str] = field(default_factory=dict)  # mistake id -> its one-line summary in the catalogue

    def meaning(self, mistake: str) -> str:
        return self.meanings.get(mistake, "")
    duplicates: dict[str, list[str]] = field(default_factory=dict)  # id: [submission graded, those set aside]

    @property
    def counts(self) -> ClassCounts:
        return ClassCounts.count(self.students, self.duplicates)

    def top_mistakes(self, count: int) -> list[tuple[ExerciseSummary, Mistake]]:
        """The most common mistakes over every exercise, most students first."""
        found = [(e, m) for e in self.exercises for m in e.mistakes]
        return sorted(found, key=lambda pair: -pair[1].count)[:count]

    def top_unexplained(self, count: int) -> list[UnexplainedGroup]:
        """The largest groups of two or more students over every exercise."""
        found = [g for e in self.exercises for g in e.unexplained_groups]
        return sorted(found, key=lambda g: -g.size)[:count]

    def to_json(self) -> dict[str, Any]:
        return {
            "course": self.course, "lesson": self.lesson, "max_total": self.max_total,
            "counts": self.counts.to_json(),
            "duplicates": [{"student": student, "graded": names[0], "set_aside": names[1:]}
                           for student, names in sorted(self.duplicates.items())],
            "students": [{"student": r.student, "score": r.score, "max_score": r.max_score, "problem": r.problem}
                         for r in self.students],
            "exercises": {e.id: {"title": e.title, "mean": round(e.mean, 4), "max_score": e.max_score,
                                 "full_marks": e.full_marks,
                                 "mistakes": [{"id": m.id, "summary": self.meaning(m.id), "count": m.count,
                                               "students": m.students} for m in e.mistakes],
                                 "unexplained": [g.to_json() for g in e.unexplained]}
                          for e in self.exercises},
            "shared_code": [g.to_json() for g in self.shared_code],
            "checks": [c.to_json() for c in self.checks],
            "lowest": [s.to_json() for s in self.lowest],
        }


def build_report(course: Course, results: Iterable[SubmissionResult],
                 duplicates: dict[str, list[str]] | None = None) -> ClassReport:
    """Means, full marks and mistakes (with who made them) of each exercise, over the class."""
    students = sorted(results, key=lambda r: r.student.casefold())
    exercises = []
    for exercise in course.exercises:
        mistakes: dict[str, Mistake] = {}
        scores = []
        for result in students:
            graded = result.exercises.get(exercise.id)
            scores.append(graded.score if graded else 0.0)
            for mistake in graded.mistakes if graded else []:
                mistakes.setdefault(mistake, Mistake(mistake)).students.append(result.student)
        ordered = sorted(mistakes.values(), key=lambda m: (-m.count, m.id))
        exercises.append(ExerciseSummary(exercise.id, exercise.title, exercise.points, scores, ordered,
                                         group_unexplained(exercise.id, students)))
    shared = shared_code(course.ids, {r.student: r.code for r in students if not r.problem}) \
        if course.report.shared_code else []
    meanings = {m.id: m.summary for m in load_catalogue(course.mistakes_dir).mistakes.values()}
    return ClassReport(course.name, course.lesson, course.max_total, students, exercises, shared,
                       check_summaries(course, students), lowest_scorers(course, students), meanings,
                       duplicates=dict(duplicates or {}))


def check_summaries(course: Course, students: list[SubmissionResult]) -> list[CheckSummary]:
    """Each check of the course, in course order: failures among the students graded, and their mistakes."""
    summaries = []
    for exercise in course.exercises:
        for check in exercise.checks:
            failed, graded, mistakes = 0, 0, Counter[str]()
            name = check.test
            for result in students:
                found = result.exercises.get(exercise.id)
                verdict = next((c for c in found.checks if c.test == check.test), None) if found else None
                if verdict is None or result.problem:
                    continue
                name, graded = verdict.name, graded + 1
                if not verdict.passed:
                    failed += 1
                    mistakes.update(verdict.mistakes[:1])
            ordered = sorted(mistakes.items(), key=lambda pair: (-pair[1], pair[0]))
            summaries.append(CheckSummary(exercise.id, check.test, name, failed, graded, ordered))
    return summaries


def lowest_scorers(course: Course, students: list[SubmissionResult], count: int = LOWEST_SHOWN) -> list[LowScorer]:
    """The students with the lowest totals (ties by id), each with their first mistake in course order."""
    lowest = []
    for result in sorted(students, key=lambda r: (r.score, r.student.casefold()))[:count]:
        first = next(((e.id, result.exercises[e.id].mistakes[0]) for e in course.exercises
                      if e.id in result.exercises and result.exercises[e.id].mistakes), None)
        lowest.append(LowScorer(result.student, result.score, first[1] if first else None,
                                first[0] if first else None))
    return lowest


def write_report(out: Path, course: Course, gradebook: Gradebook | None = None) -> ClassReport:
    """Write `out/report.json` and `out/report.html` from `out`'s gradebook (read from disk unless the run
    that just wrote it hands it over)."""
    gradebook = gradebook or Gradebook(out, course)
    if not gradebook.results:
        raise KitError(f"{Path(out) / FEEDBACK}: no graded students here (run attnkit grade first)")
    report = build_report(course, gradebook.results.values(), gradebook.duplicates)
    write_atomically(Path(out) / REPORT_JSON, json.dumps(report.to_json(), indent=2) + "\n")
    write_atomically(Path(out) / REPORT_HTML, render_html(report))
    return report
