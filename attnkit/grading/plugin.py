"""The pytest plugin that turns grader tests into scored, diagnosed checks.

Grader tests ask for the `attempt` fixture (and `rng`, `settings`); the plugin
parametrises them over the submissions being graded, orders the items student
by student and exercise by exercise (so each student's sandbox lives for one
contiguous stretch), records every verdict and hands each student's result to
a callback as soon as that student is done.
"""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

from attnkit.config import Check, Course, Exercise
from attnkit.errors import KitError
from attnkit.grading.attempt import Attempt, CheckFailed, History
from attnkit.grading.catalogue import Catalogue
from attnkit.grading.diagnosis import Context, Finding
from attnkit.grading.feedback import finding_message
from attnkit.grading.oracle import Oracle
from attnkit.grading.results import CheckResult, ExerciseResult, SubmissionResult

STUDENT_FIXTURE = "attnkit_student"


@dataclass
class Submission:
    """A student's package folder (holding `exercises/`) ready to be graded."""

    student: str
    root: Path
    fingerprint: str = ""


@dataclass
class _StudentState:
    submission: Submission
    sandbox: Any = None
    prior: dict[str, list[str]] = field(default_factory=dict)
    histories: dict[str, History] = field(default_factory=dict)
    exercises: dict[str, ExerciseResult] = field(default_factory=dict)
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

    # --- collection -------------------------------------------------------

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        if STUDENT_FIXTURE in metafunc.fixturenames:
            ids = list(self.students)
            metafunc.parametrize(STUDENT_FIXTURE, ids, ids=ids, scope="function")

    def _place(self, item: pytest.Item) -> tuple[str, Exercise, Check] | None:
        exercise_id = Path(str(item.path)).stem.removeprefix("test_")
        test = getattr(item, "originalname", item.name)
        for check in self.checks.get(exercise_id, []):
            if check.test == test:
                return item.callspec.params[STUDENT_FIXTURE], self.course.exercise(exercise_id), check
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

        def sort_key(entry):
            _, (student, exercise, check) = entry
            return order[student], exercise_order[exercise.id], self.checks[exercise.id].index(check)

        placed.sort(key=sort_key)
        items[:] = [item for item, _ in placed]
        self._places = {item.nodeid: place for item, place in placed}
        for _, (student, exercise, check) in placed:
            state = self.students[student]
            state.remaining += 1
            state.exercises.setdefault(exercise.id, ExerciseResult(exercise.id, 0.0))
            state.exercises[exercise.id].max_score += check.points

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
        dependencies = {d: self.course.exercise(d).module for d in self.course.dependencies(exercise.id)}
        context = Context(exercise.id, self.catalogue, self.course.settings["rtol"], self.course.settings["atol"],
                          dependencies, state.prior)
        history = state.histories.setdefault(exercise.id, History())
        return Attempt(state.sandbox.request, self.oracle, context, history, public=check.public)

    @pytest.fixture
    def rng(self, request: pytest.FixtureRequest, attnkit_student: str) -> np.random.Generator:
        """Public checks draw the same inputs for everyone; hidden ones, fresh inputs a student and a run.

        Fresh every run, so what a submission prints of its inputs (kept in the
        feedback) is no use to a resubmission that hard-codes the answers.
        """
        student, exercise, check = self._places[request.node.nodeid]
        salt = "" if check.public else f"{student}/{self.run_salt}"
        digest = hashlib.sha256(f"{exercise.id}/{check.test}/{salt}".encode()).digest()
        return np.random.default_rng(int.from_bytes(digest[:8], "big"))

    @pytest.fixture
    def settings(self) -> dict[str, float]:
        return dict(self.course.settings)

    # --- verdicts ---------------------------------------------------------

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo):
        outcome = yield
        report = outcome.get_result()
        if report.when == "call" or (report.when == "setup" and report.failed):
            self._record(item, call)

    def pytest_runtest_logfinish(self, nodeid: str, location: Any) -> None:
        student, _, _ = self._places[nodeid]
        state = self.students[student]
        state.remaining -= 1
        if state.remaining == 0:
            self._finish(state)

    def _record(self, item: pytest.Item, call: pytest.CallInfo) -> None:
        student, exercise, check = self._places[item.nodeid]
        state = self.students[student]
        name = (item.function.__doc__ or check.test).strip().splitlines()[0]
        result = CheckResult(name, check.test, check.public, passed=True, points=check.points,
                             max_points=check.points)
        error = call.excinfo.value if call.excinfo else None
        if isinstance(error, CheckFailed):
            finding = error.finding
            self._fail(result, finding, exercise)
            # Filed under the exercise to blame, so later exercises blame it too.
            found = state.prior.setdefault(finding.cause or exercise.id, [])
            if finding.mistake not in found:
                found.append(finding.mistake)
        elif error is not None:
            text = f"{type(error).__name__}: {error}"
            self.internal_errors.append(f"{item.nodeid}: {text}")
            result.passed, result.points = False, 0.0
            result.message = f"internal grader error (a bug in the kit, not in your code): {text}"
        state.exercises[exercise.id].checks.append(result)

    def _fail(self, result: CheckResult, finding: Finding, exercise: Exercise) -> None:
        result.passed, result.points = False, 0.0
        result.mistakes = [finding.mistake]
        result.message, result.hint = finding_message(finding, exercise, self.course, self.catalogue)

    def _finish(self, state: _StudentState) -> None:
        output = ""
        if state.sandbox is not None:
            output = state.sandbox.captured_output
            state.sandbox.close()
            state.sandbox = None
        self.on_result(SubmissionResult(state.submission.student, state.exercises, output=output,
                                        fingerprint=state.submission.fingerprint))
