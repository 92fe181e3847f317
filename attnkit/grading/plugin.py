"""The pytest plugin that turns grader tests into scored, diagnosed checks.

pytest collects the graders (each check a test function asking for the kit's fixtures: `attempt`,
`rng`, `settings`, `data`); the plugin then runs the loop itself (`pytest_runtestloop`): student by
student, exercise by exercise in the course's order (so each student's sandbox lives for one
contiguous stretch and an exercise's dependencies are graded before it), each check called with
its fixtures. Once an exercise's checks are all done their findings are settled together
(`diagnosis.resolve`), and each student's result goes to a callback as soon as that student is done.

Why not one pytest item per check and student: pytest's per-item machinery (fixture resolution,
setup and teardown, three reports and their hooks) cost a grading run more than a student's
sandbox does; a check needs none of it, only its fixtures. A grader is still a pytest module,
collected, imported and refused by pytest as any test file is.
"""
from __future__ import annotations

import hashlib
import inspect
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
import pytest

from attnkit.config import PACKAGE, Check, Course, Exercise, check_name, exercise_of_grader
from attnkit.errors import KitError
from attnkit.grading.attempt import Attempt, CheckFailed
from attnkit.grading.catalogue import Catalogue
from attnkit.grading.consistency import drop_contradicted
from attnkit.grading.context import ExerciseContext
from attnkit.grading.diagnosis import Finding, resolve
from attnkit.grading.engine_ids import CRASH, GENERIC_IDS, HARD_CODED, MALFORMED_REPLY
from attnkit.grading.feedback import check_feedback, location_feedback
from attnkit.grading.locating import Located
from attnkit.grading.memory import CheckRecord, StudentMemory
from attnkit.grading.oracle import Oracle
from attnkit.grading.results import CheckResult, ExerciseResult, SubmissionResult, zero_results
from attnkit.grading.source_evidence import evident
from attnkit.grading.source_rules import forbidden_uses
from attnkit.sandbox.protocol import Standin

FIXTURES = ("attempt", "rng", "settings", "data")  # what a check may ask for (docs/writing-an-exercise.md)
WHOLE_CODE_MISTAKES = {HARD_CODED}  # a property of all the code: named only where it explains every wrong number


@dataclass
class Submission:
    """A student's package folder (holding `exercises/`) ready to be graded."""

    student: str
    root: Path
    fingerprint: str = ""
    salt: str = ""  # what its hidden checks' inputs are drawn from; "" for the run's salt


@dataclass(frozen=True)
class _CheckFunction:
    """A check of course.toml and the grader function that runs it."""

    check: Check
    function: Callable[..., Any]
    fixtures: tuple[str, ...]
    nodeid: str

    @property
    def name(self) -> str:
        """The name students see: the first line of the function's docstring."""
        return check_name(inspect.getdoc(self.function), self.check.test)


@dataclass
class _ExerciseState:
    context: ExerciseContext
    checks: list[tuple[Check, str, CheckRecord]] = field(default_factory=list)  # (check, name, record)


@dataclass
class _StudentState:
    submission: Submission
    sandbox: Any = None
    memory: StudentMemory = field(default_factory=StudentMemory)
    results: dict[str, ExerciseResult] = field(default_factory=dict)
    shown_output: int | None = None  # how much of the public process's output came before the traced runs


class GradingPlugin:
    """Runs the selected checks of `course` against `submissions`."""

    def __init__(self, course: Course, catalogue: Catalogue, oracle: Oracle, submissions: list[Submission],
                 checks: dict[str, list[Check]], open_sandbox: Callable[[Path], Any],
                 on_result: Callable[[SubmissionResult], None], run_salt: str | None = None):
        """`run_salt` seeds the hidden checks' inputs: one per grading run, shared by its workers (fresh if None)."""
        self.course = course
        self.catalogue = catalogue
        self.oracle = oracle
        self.checks = checks  # exercise id -> the checks to run, in order
        self.open_sandbox = open_sandbox
        self.on_result = on_result
        self.submissions = submissions
        self.internal_errors: list[str] = []
        self.fatal: KitError | None = None
        self.run_salt = run_salt or new_run_salt()
        self._plan: list[tuple[Exercise, list[_CheckFunction]]] = []
        self._collection_errors: list[str] = []
        self._data = MappingProxyType({k: _read_only(v) for k, v in course.data.items()})

    # --- collection -------------------------------------------------------

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:  # pytest's last line of the report says what is wrong, after its "E   "
            lines = str(report.longrepr).strip().splitlines() or ["failed"]
            self._collection_errors.append(f"{report.nodeid or report.fspath}: {lines[-1].lstrip('E').strip()}")

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, session: pytest.Session, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:
        try:
            self._plan = self._make_plan(items)
        except KitError as error:
            self.fatal = error

    def _make_plan(self, items: list[pytest.Item]) -> list[tuple[Exercise, list[_CheckFunction]]]:
        """Each selected exercise in the course's order, with its checks' grader functions in course.toml's,
        public checks first: nothing the student's process keeps from a hidden check (whose inputs are
        secret) can then show in a public check's output, which students see at once."""
        if self._collection_errors:
            raise KitError(f"grader error: {self._collection_errors[0]}")
        functions: dict[tuple[str, str], pytest.Function] = {}
        for item in items:
            if isinstance(item, pytest.Function):
                functions.setdefault((exercise_of_grader(item.path), item.originalname), item)
        missing = [f"{e}.{c.test}" for e, cs in self.checks.items() for c in cs if (e, c.test) not in functions]
        if missing:
            raise KitError(f"{self.course.graders_dir}: course.toml lists checks no grader defines: "
                           f"{', '.join(missing)}")
        plan = []
        for exercise in self.course.exercises:
            if exercise.id in self.checks:
                public_first = sorted(self.checks[exercise.id], key=lambda c: not c.public)  # stable
                plan.append((exercise, [self._check_function(functions[exercise.id, c.test], c)
                                        for c in public_first]))
        return plan

    @staticmethod
    def _check_function(item: pytest.Function, check: Check) -> _CheckFunction:
        if hasattr(item, "callspec"):
            raise KitError(f"{item.nodeid}: a check cannot be parametrized (loop inside it instead)")
        arguments = tuple(inspect.signature(item.obj).parameters)
        unknown = [name for name in arguments if name not in FIXTURES]
        if unknown:
            raise KitError(f"{item.nodeid}: asks for the fixture {unknown[0]!r}; a check may ask for "
                           f"{', '.join(FIXTURES)}")
        return _CheckFunction(check, item.obj, arguments, item.nodeid)

    # --- the run ------------------------------------------------------------

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool:
        """Grade every student; Ctrl-C goes up to pytest, which ends the session as interrupted."""
        for submission in self.submissions:
            if self.fatal:
                break
            self._grade(_StudentState(submission))
        return True

    def _grade(self, state: _StudentState) -> None:
        settled: list[tuple[Exercise, _ExerciseState]] = []
        for exercise, check_functions in self._plan:
            exercise_state = _ExerciseState(self._context(state, exercise))
            if state.sandbox is not None:  # a fresh process where the refusals change (`begin_exercise`)
                state.sandbox.begin_exercise(exercise_state.context.refused)
            state.memory.start_exercise()
            for check_function in check_functions:
                record = CheckRecord()
                exercise_state.checks.append((check_function.check, check_function.name, record))
                arguments = {name: self._fixture(name, state, exercise_state, check_function.check, record)
                             for name in check_function.fixtures}
                self._run(check_function, arguments, state, record)
            self._settle(state, exercise, exercise_state)
            settled.append((exercise, exercise_state))
        self._locate(state, settled)
        for exercise, exercise_state in settled:
            state.results[exercise.id] = self._result(exercise, exercise_state)
        self._finish(state)

    def _locate(self, state: _StudentState, settled: list[tuple[Exercise, _ExerciseState]]) -> None:
        """Where each failed check's first wrong answer goes wrong (`steps.located`), found now that none of
        the student's answers is still to be scored: the traced runs can change no score, and what they print
        is not shown."""
        if state.sandbox is not None:
            state.shown_output = len(state.sandbox.captured_output)
        for exercise, exercise_state in settled:
            found: dict[tuple[bool, tuple[str, ...]], Located] = {}
            for check, _, record in exercise_state.checks:
                mistakes = tuple(sorted({m for f in record.findings for m in f.mistakes}))
                if record.locate_later is None or not mistakes:
                    continue
                key = (check.public, mistakes)
                if key in found:  # the same catalogued mistakes of the same code: on the same lines
                    record.located = replace(found[key], yours=None, expected=None)
                    continue
                record.located = record.locate_later(not check.public)
                if record.located is not None and self._reusable(exercise, mistakes, record.located):
                    found[key] = record.located

    def _reusable(self, exercise: Exercise, mistakes: tuple[str, ...], located: Located) -> bool:
        """Whether another check of the exercise that names the same mistakes may be told the same lines: each
        is a catalogued mistake of the exercise's own (the same code's, placed by its model wherever it shows),
        and the answer did not crash (a crash's words are about that check's inputs). Only another check as
        visible as this one: its numbers (`yours`) are dropped, as they were this check's."""
        crashed = located.raised or located.shapes or located.assumed
        return set(mistakes) <= self.catalogue.ids_for(exercise.id) and not crashed

    def _run(self, check_function: _CheckFunction, arguments: dict[str, Any], state: _StudentState,
             record: CheckRecord) -> None:
        """Call one check; a failed check is the student's, any other error the course's.

        A check that raised never passes: the grader could not read the student's answer, which an
        honest worker's answer never causes (each reply is checked against its request first), so the
        check scores 0 as a malformed reply, and the run still fails at its end naming the grader.
        """
        try:
            check_function.function(**arguments)
        except CheckFailed:
            pass
        except KitError as error:  # the course's own mistake (a model naming an unknown id, ...)
            self.fatal = self.fatal or error
        except KeyboardInterrupt:
            raise
        except BaseException as error:  # a bug in the grader: the run goes on, and fails at its end
            problem = f"{type(error).__name__}: {error}"
            record.findings.append(Finding.named(MALFORMED_REPLY, detail=f"the grader could not read this "
                                                                           f"answer ({problem[:200]})"))
            self.internal_errors.append(f"{check_function.nodeid} ({state.submission.student}): {problem}")

    def _context(self, state: _StudentState, exercise: Exercise) -> ExerciseContext:
        dependencies = [self.course.exercise(d) for d in self.course.dependencies(exercise.id)]
        standins = tuple(Standin(d.module, f) for d in dependencies for f in d.functions)
        forbidden, unchecked = self._forbidden(state, exercise)
        return ExerciseContext(exercise, self.course, self.catalogue, standins,
                               {d.module: d.id for d in dependencies}, self.course.grading.carry_forward,
                               tuple(forbidden), tuple(unchecked), self._evident(state, exercise))

    def _forbidden(self, state: _StudentState, exercise: Exercise) -> tuple[list[str], list[str]]:
        """Uses of the names the exercise's mistakes forbid, read from the submitted source here: those it
        names, and the places it cannot follow (words for the feedback once a refused routine was reached,
        never a finding alone: threads and Tensor subclasses are honest code too)."""
        names = [n for m in self.catalogue.for_exercise(exercise.id) for n in m.forbid]
        package = state.submission.root / PACKAGE
        if not names or not package.is_dir():
            return [], []
        sources = {p.name: p.read_bytes() for p in sorted(package.glob("*.py"))}  # bytes: parsed as Python would
        uses = forbidden_uses(sources, exercise.module, names)
        return [str(use) for use in uses if not use.opaque], [str(use) for use in uses if use.opaque]

    def _evident(self, state: _StudentState, exercise: Exercise) -> dict[str, str]:
        """The mistakes of the exercise and those it builds on whose code its own or their modules show."""
        exercises = [exercise.id, *self.course.dependencies(exercise.id)]
        mistakes = [m for e in exercises for m in self.catalogue.for_exercise(e) if m.evidence]
        package = state.submission.root / PACKAGE
        files = [package / f"{self.course.exercise(e).module}.py" for e in exercises]
        sources = {f.name: f.read_bytes() for f in files if f.is_file()}
        return evident(mistakes, sources) if mistakes and sources else {}

    # --- fixtures ---------------------------------------------------------

    def _fixture(self, name: str, state: _StudentState, exercise_state: _ExerciseState, check: Check,
                 record: CheckRecord) -> Any:
        exercise = exercise_state.context.exercise
        if name == "attempt":
            if state.sandbox is None:
                state.sandbox = self.open_sandbox(state.submission.root)
                state.sandbox.begin_exercise(exercise_state.context.refused)
            if not check.public:  # from here on the exercise's checks are asked of the hidden process
                state.sandbox.begin_hidden()
            return Attempt(state.sandbox, self.oracle, exercise_state.context, record, state.memory)
        if name == "rng":
            return self._rng(state, exercise, check)
        if name == "settings":  # the exercise's own settings (declared by its grader, set in course.toml)
            return MappingProxyType(dict(exercise.settings))
        return self._data  # "data": the lesson's numbers from course.toml's [data], read-only

    def _rng(self, state: _StudentState, exercise: Exercise, check: Check) -> np.random.Generator:
        """Public checks draw the same inputs for everyone; hidden ones, those of the submission's salt.

        `attnkit grade` gives each submission its salt (Gradebook.hidden_inputs_salt): the output folder's
        seed, the same on every regrade so unchanged code meets the same questions, or for a resubmission
        one of its own, so what its author learnt of the earlier inputs is no use to it; other runs share
        a fresh run salt. What a submission prints from the first hidden check on is kept out of its
        feedback too. Every first submission meets the same hidden inputs: two identical submissions get
        identical grades, and the reference's and the mistake models' answers are worked out once a run,
        not once a student (two fifths of a correct student's grading). No student's code runs before the
        run ends where another's could learn them from: a sandbox sees only its own files, and feedback is
        read after the run.
        """
        salt = "" if check.public else state.submission.salt or self.run_salt
        digest = hashlib.sha256(f"{exercise.id}/{check.test}/{salt}".encode()).digest()
        return np.random.default_rng(int.from_bytes(digest[:8], "big"))

    # --- verdicts ---------------------------------------------------------

    def _settle(self, state: _StudentState, exercise: Exercise, exercise_state: _ExerciseState) -> None:
        """The exercise's checks' findings settled together; later exercises may read what they found."""
        context = exercise_state.context
        drop_contradicted(state.memory.exercise.questions, self.oracle, context.rtol, context.atol)
        resolve([f for _, _, record in exercise_state.checks for f in record.findings], whole=WHOLE_CODE_MISTAKES)
        result = self._result(exercise, exercise_state)
        state.memory.settle(exercise.id, result.mistakes, result.carried_from)

    def _result(self, exercise: Exercise, exercise_state: _ExerciseState) -> ExerciseResult:
        """The exercise's checks as results."""
        result = ExerciseResult(exercise.id, sum(c.points for c, _, _ in exercise_state.checks))
        for check, name, record in exercise_state.checks:
            result.checks.append(self._check_result(exercise, check, name, record))
        return result

    def _check_result(self, exercise: Exercise, check: Check, name: str, record: CheckRecord) -> CheckResult:
        mistakes = [m for f in record.findings for m in f.mistakes]
        mistakes = list(dict.fromkeys(mistakes))
        message, hint = check_feedback(record, exercise, self.course, self.catalogue)
        passed = not mistakes
        location, where = location_feedback(record.located if not passed else None, self.course.feedback.locate,
                                            check.public)
        carried_from = list(dict.fromkeys(c.exercise for c in record.carried))
        unexplained = not passed and bool(set(mistakes) & (GENERIC_IDS - {CRASH}))
        return CheckResult(name, check.test, check.public, passed, check.points if passed else 0.0, check.points,
                           mistakes, " ".join(filter(None, [message, where])), hint, carried_from=carried_from,
                           location=location, answer=record.answer if unexplained else None)

    def _finish(self, state: _StudentState) -> None:
        output, problem = "", ""
        if state.sandbox is not None:
            output = shown_output(state.sandbox.captured_output, state.shown_output,
                                  bool(state.sandbox.hidden_output))
            problem = state.sandbox.malformed
            state.sandbox.close(wait=False)  # the warm parent ends and clears it up while we go on
            state.sandbox = None
        results = state.results
        if problem:  # a forged or broken reply: nothing this submission's process said can be trusted
            results = zero_results(self.course, problem, mistake=MALFORMED_REPLY,
                                   tests={e: [c.test for c in cs] for e, cs in self.checks.items()})
        self.on_result(SubmissionResult(state.submission.student, results, problem=problem, output=output,
                                        fingerprint=state.submission.fingerprint))


HIDDEN_OUTPUT = "(what your code printed during the hidden checks is not shown: it could show their inputs)"


def shown_output(printed: str, shown: int | None, hidden_printed: bool) -> str:
    """What a student's feedback shows of their code's output: what its public process printed while the
    checks ran (`shown` characters of it; traced runs print after), never what the hidden process printed.

    Hidden inputs are the same on a regrade (the assignment's seed), so output that could hold them stays out
    of the feedback; the public process never sees a hidden input, so all it printed during the checks may be
    shown (runner.SandboxedSubmission).
    """
    kept = printed if shown is None else printed[:shown]
    if not hidden_printed:
        return kept
    return kept + ("\n" if kept.strip() else "") + HIDDEN_OUTPUT


def new_run_salt() -> str:
    """What makes one grading run's hidden inputs differ from every other run's."""
    return secrets.token_hex(8)


def _read_only(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        value = value.copy()
        value.flags.writeable = False
    return value
