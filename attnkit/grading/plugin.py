"""The pytest plugin that turns grader tests into scored, diagnosed checks.

Grader tests ask for the `attempt` fixture (and `rng`, `settings`, `data`); the plugin
parametrises them over the submissions being graded, orders the items student by student and
exercise by exercise (so each student's sandbox lives for one contiguous stretch and an exercise's
dependencies are graded before it), and once an exercise's checks are all done it settles their
findings together (`diagnosis.resolve`) and writes its results. Each student's result goes to a
callback as soon as that student is done.
"""
from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
import pytest

from attnkit.config import PACKAGE, Check, Course, Exercise, exercise_of_grader
from attnkit.errors import KitError
from attnkit.grading.attempt import Attempt, CheckFailed, CheckRecord, ExerciseContext
from attnkit.grading.catalogue import Catalogue
from attnkit.grading.diagnosis import resolve
from attnkit.grading.feedback import check_feedback
from attnkit.grading.oracle import Oracle
from attnkit.grading.results import CheckResult, ExerciseResult, SubmissionResult
from attnkit.grading.source_rules import forbidden_uses
from attnkit.sandbox.protocol import Standin

STUDENT_FIXTURE = "attnkit_student"
WHOLE_CODE_MISTAKES = {"hard-coded"}  # a property of all the code: named only where it explains every wrong number


@dataclass
class Submission:
    """A student's package folder (holding `exercises/`) ready to be graded."""

    student: str
    root: Path
    fingerprint: str = ""


@dataclass
class _ExerciseState:
    context: ExerciseContext
    checks: list[tuple[Check, str, CheckRecord]] = field(default_factory=list)  # (check, name, record)
    remaining: int = 0


@dataclass
class _StudentState:
    submission: Submission
    sandbox: Any = None
    found: dict[str, list[str]] = field(default_factory=dict)
    carried: dict[str, list[str]] = field(default_factory=dict)
    exercises: dict[str, _ExerciseState] = field(default_factory=dict)
    results: dict[str, ExerciseResult] = field(default_factory=dict)
    remaining: int = 0


class GradingPlugin:
    """Runs the selected checks of `course` against `submissions`."""

    def __init__(self, course: Course, catalogue: Catalogue, oracle: Oracle, submissions: list[Submission],
                 checks: dict[str, list[Check]], open_sandbox: Callable[[Path], Any],
                 on_result: Callable[[SubmissionResult], None]):
        self.course = course
        self.catalogue = catalogue
        self.oracle = oracle
        self.checks = checks  # exercise id -> the checks to run, in order
        self.open_sandbox = open_sandbox
        self.on_result = on_result
        self.students = {s.student: _StudentState(s) for s in submissions}
        self.internal_errors: list[str] = []
        self.fatal: KitError | None = None
        self.run_salt = secrets.token_hex(8)
        self._places: dict[str, tuple[str, Exercise, Check]] = {}

    # --- collection -------------------------------------------------------

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        if STUDENT_FIXTURE in metafunc.fixturenames:
            ids = list(self.students)
            metafunc.parametrize(STUDENT_FIXTURE, ids, ids=[f"s{i}" for i in range(len(ids))], scope="function")

    def _place(self, item: pytest.Item) -> tuple[str, Exercise, Check] | None:
        exercise_id = exercise_of_grader(item.path)
        test = getattr(item, "originalname", item.name)
        for check in self.checks.get(exercise_id, []):
            if check.test == test and isinstance(item, pytest.Function):  # a grader's test function
                student = str(item.callspec.params[STUDENT_FIXTURE])  # a str already: pytest_generate_tests
                return student, self.course.exercise(exercise_id), check
        return None

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, session: pytest.Session, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:
        placed, found = [], set()
        for item in items:
            place = self._place(item) if hasattr(item, "callspec") else None
            if place:
                placed.append((item, place))
                found.add((place[1].id, place[2].test))
        missing = [f"{e}.{c.test}" for e, cs in self.checks.items() for c in cs if (e, c.test) not in found]
        if missing:
            self.fatal = KitError(f"{self.course.graders_dir}: course.toml lists checks no grader defines: "
                                  f"{', '.join(missing)}")
            items[:] = []
            return
        order = {sid: i for i, sid in enumerate(self.students)}
        exercise_order = {e.id: i for i, e in enumerate(self.course.exercises)}

        def sort_key(entry: tuple[pytest.Item, tuple[str, Exercise, Check]]) -> tuple[int, int, int]:
            _, (student, exercise, check) = entry
            return order[student], exercise_order[exercise.id], self.checks[exercise.id].index(check)

        placed.sort(key=sort_key)
        items[:] = [item for item, _ in placed]
        self._places = {item.nodeid: place for item, place in placed}
        for _, (student, exercise, _check) in placed:
            state = self.students[student]
            state.remaining += 1
            if exercise.id not in state.exercises:
                state.exercises[exercise.id] = _ExerciseState(self._context(state, exercise))
            state.exercises[exercise.id].remaining += 1

    def _context(self, state: _StudentState, exercise: Exercise) -> ExerciseContext:
        dependencies = [self.course.exercise(d) for d in self.course.dependencies(exercise.id)]
        standins = tuple(Standin(d.module, f) for d in dependencies for f in d.functions)
        return ExerciseContext(exercise, self.course, self.catalogue, standins,
                               {d.module: d.id for d in dependencies}, self.course.grading.carry_forward,
                               self._forbidden(state, exercise), state.found, state.carried)

    def _forbidden(self, state: _StudentState, exercise: Exercise) -> list[str]:
        """Uses of the names the exercise's mistakes forbid, read from the submitted source here."""
        names = [n for m in self.catalogue.for_exercise(exercise.id) for n in m.forbid]
        package = state.submission.root / PACKAGE
        if not names or not package.is_dir():
            return []
        sources = {p.name: p.read_bytes() for p in sorted(package.glob("*.py"))}  # bytes: parsed as Python would
        return [str(use) if not use.opaque else f"the kit could not check that {exercise.module} is written by hand: "
                f"{use}" for use in forbidden_uses(sources, exercise.module, names)]

    # --- fixtures ---------------------------------------------------------

    @pytest.fixture
    def attnkit_student(self, request: pytest.FixtureRequest) -> str:
        return request.param

    @pytest.fixture
    def attempt(self, request: pytest.FixtureRequest, attnkit_student: str) -> Attempt:
        student, exercise, check = self._places[request.node.nodeid]
        state = self.students[student]
        if state.sandbox is None:
            state.sandbox = self.open_sandbox(state.submission.root)
        exercise_state = state.exercises[exercise.id]
        record = CheckRecord()
        name = (request.node.function.__doc__ or check.test).strip().splitlines()[0]
        exercise_state.checks.append((check, name, record))
        return Attempt(state.sandbox, self.oracle, exercise_state.context, record)

    @pytest.fixture
    def rng(self, request: pytest.FixtureRequest, attnkit_student: str) -> np.random.Generator:
        """Public checks draw the same inputs for everyone; hidden ones, fresh inputs a student and a run.

        Fresh every run, so what a submission prints of its inputs (kept in the feedback) is no use
        to a resubmission that hard-codes the answers.
        """
        student, exercise, check = self._places[request.node.nodeid]
        salt = "" if check.public else f"{student}/{self.run_salt}"
        digest = hashlib.sha256(f"{exercise.id}/{check.test}/{salt}".encode()).digest()
        return np.random.default_rng(int.from_bytes(digest[:8], "big"))

    @pytest.fixture(scope="module")
    def settings(self, request: pytest.FixtureRequest) -> Mapping[str, Any]:
        """The exercise's own settings (declared by its grader, set in course.toml), read-only."""
        exercise_id = exercise_of_grader(str(request.module.__file__))
        return MappingProxyType(dict(self.course.exercise(exercise_id).settings))

    @pytest.fixture(scope="session")
    def data(self) -> Mapping[str, Any]:
        """The lesson's numbers, from course.toml's [data], read-only (shared by every check)."""
        return MappingProxyType({k: _read_only(v) for k, v in self.course.data.items()})

    # --- verdicts ---------------------------------------------------------

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo):
        outcome = yield
        report = outcome.get_result()
        if report.when == "call" or (report.when == "setup" and report.failed):
            error = call.excinfo.value if call.excinfo else None
            if isinstance(error, KitError):  # the course's own mistake (a model naming an unknown id, ...)
                self.fatal = self.fatal or error
            elif error is not None and not isinstance(error, CheckFailed):
                self.internal_errors.append(f"{item.nodeid}: {type(error).__name__}: {error}")

    def pytest_runtest_logfinish(self, nodeid: str, location: Any) -> None:
        student, exercise, _ = self._places[nodeid]
        state = self.students[student]
        exercise_state = state.exercises[exercise.id]
        exercise_state.remaining -= 1
        if exercise_state.remaining == 0:
            state.results[exercise.id] = self._settle(state, exercise, exercise_state)
        state.remaining -= 1
        if state.remaining == 0:
            self._finish(state)

    def _settle(self, state: _StudentState, exercise: Exercise, exercise_state: _ExerciseState) -> ExerciseResult:
        """The exercise's checks, their findings settled together, as results."""
        resolve([f for _, _, record in exercise_state.checks for f in record.findings], whole=WHOLE_CODE_MISTAKES)
        result = ExerciseResult(exercise.id, sum(c.points for c, _, _ in exercise_state.checks))
        for check, name, record in exercise_state.checks:
            result.checks.append(self._check_result(exercise, check, name, record))
        state.found[exercise.id] = result.mistakes
        state.carried[exercise.id] = result.carried_from
        return result

    def _check_result(self, exercise: Exercise, check: Check, name: str, record: CheckRecord) -> CheckResult:
        mistakes = [m for f in record.findings for m in f.mistakes]
        mistakes = list(dict.fromkeys(mistakes))
        message, hint = check_feedback(record, exercise, self.course, self.catalogue)
        passed = not mistakes
        carried_from = list(dict.fromkeys(c.exercise for c in record.carried))
        return CheckResult(name, check.test, check.public, passed, check.points if passed else 0.0, check.points,
                           mistakes, message, hint, carried_from=carried_from)

    def _finish(self, state: _StudentState) -> None:
        output, problem = "", ""
        if state.sandbox is not None:
            output = state.sandbox.captured_output
            problem = state.sandbox.malformed
            state.sandbox.close(wait=False)  # the warm parent ends and clears it up while we go on
            state.sandbox = None
        results = state.results
        if problem:  # a forged or broken reply: nothing this submission's process said can be trusted
            results = zero_results(self.course, {e: [c.test for c in cs] for e, cs in self.checks.items()},
                                   problem, "malformed-reply")
        self.on_result(SubmissionResult(state.submission.student, results, problem=problem, output=output,
                                        fingerprint=state.submission.fingerprint))


def _read_only(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        value = value.copy()
        value.flags.writeable = False
    return value


def zero_results(course: Course, tests: dict[str, list[str]], problem: str,
                 mistake: str | None = None) -> dict[str, ExerciseResult]:
    """Zeros on the given checks of every exercise, each saying why."""
    exercises = {}
    for exercise in course.exercises:
        if exercise.id not in tests:
            continue
        checks = [CheckResult(c.test, c.test, c.public, passed=False, points=0.0, max_points=c.points,
                              mistakes=[mistake] if mistake else [], message=problem)
                  for c in exercise.checks if c.test in tests[exercise.id]]
        exercises[exercise.id] = ExerciseResult(exercise.id, sum(c.max_points for c in checks), checks)
    return exercises
