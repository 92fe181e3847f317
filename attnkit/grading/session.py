"""Grade one or many submissions in one pytest session of the trusted process."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from attnkit.config import Check, Course
from attnkit.errors import KitError
from attnkit.grading.catalogue import load_catalogue
from attnkit.grading.oracle import Oracle, RecordedOracle, ReferenceOracle
from attnkit.grading.plugin import GradingPlugin, Submission
from attnkit.grading.results import SubmissionResult
from attnkit.sandbox.runner import Limits, opener

RECORDED_ANSWERS = "expected.json"
# pytest's per-test machinery the graders do not use: output capture (graders print nothing; students'
# output is the sandbox's), warning and log capture, fault and unraisable-exception hooks (each test's
# garbage collection), assertion rewriting, the cache, the terminal report.
QUIET_PYTEST = ("--capture=no", "--assert=plain", "-p", "no:cacheprovider", "-p", "no:terminal", "-p", "no:stepwise",
                "-p", "no:logging", "-p", "no:warnings", "-p", "no:faulthandler", "-p", "no:unraisableexception",
                "-p", "no:threadexception", "-p", "no:junitxml", "-p", "no:doctest", "-p", "no:pastebin",
                "-p", "no:nose", "-p", "no:setuponly", "-p", "no:setupplan")
PYTEST_INI = Path(__file__).with_name("pytest.ini")


def limits_from(course: Course) -> Limits:
    settings = course.settings
    return Limits(call_timeout=settings.call_timeout, memory_mb=settings.memory_limit_mb,
                  output_kb=settings.output_limit_kb, time_budget=settings.time_budget)


def select_checks(course: Course, exercise_ids: Iterable[str] | None, public_only: bool,
                  hidden_only: bool = False) -> dict[str, list[Check]]:
    """The checks to run, by exercise; unknown exercise ids are refused."""
    wanted = list(exercise_ids or course.ids)
    unknown = [e for e in wanted if e not in course.ids]
    if unknown:
        raise KitError(f"{course.file}: no exercise {unknown[0]!r} (exercises: {', '.join(course.ids)})")
    selected = {e.id: [c for c in e.checks if (c.public or not public_only) and not (c.public and hidden_only)]
                for e in course.exercises if e.id in wanted}
    return {exercise_id: checks for exercise_id, checks in selected.items() if checks}


def make_oracle(course: Course) -> Oracle:
    """The reference where the course has it, else the handout's recorded answers."""
    if course.solutions_dir.is_dir():
        return ReferenceOracle(course.solutions_dir, course.mistakes_dir, load_catalogue(course.mistakes_dir).mistakes)
    return RecordedOracle(course.graders_dir / RECORDED_ANSWERS)


def run_checks(course: Course, submissions: list[Submission], *, exercise_ids: Iterable[str] | None = None,
               public_only: bool = False, hidden_only: bool = False, oracle: Oracle | None = None,
               open_sandbox: Callable[[Path], object] | None = None,
               on_result: Callable[[SubmissionResult], None] = lambda r: None,
               run_salt: str | None = None) -> list[SubmissionResult]:
    """Run the selected checks against every submission; results arrive through `on_result` too.

    `run_salt` seeds the hidden inputs (plugin.GradingPlugin._rng): a class graded in several workers
    passes them one, so all its students meet the same hidden inputs."""
    catalogue = load_catalogue(course.mistakes_dir)
    checks = select_checks(course, exercise_ids, public_only, hidden_only)
    limits = limits_from(course)
    results: list[SubmissionResult] = []

    def collect(result: SubmissionResult) -> None:
        results.append(result)
        on_result(result)

    plugin = GradingPlugin(
        course, catalogue, oracle or make_oracle(course), submissions, checks,
        open_sandbox or opener(limits, warn=not public_only, hidden_checks=not public_only), collect, run_salt,
    )
    files = [str(course.grader_file(course.exercise(exercise_id))) for exercise_id in checks]
    for path in files:
        if not Path(path).is_file():
            raise KitError(f"{path}: grader file missing")
    args = ["-c", str(PYTEST_INI), "--rootdir", str(course.graders_dir), "--noconftest", "--disable-plugin-autoload",
            *QUIET_PYTEST, "--import-mode=importlib", *files]
    code = pytest.main(args, plugins=[plugin])
    if plugin.fatal:
        raise plugin.fatal
    if plugin.internal_errors:
        raise KitError("grader error: " + plugin.internal_errors[0])
    if code == pytest.ExitCode.INTERRUPTED:
        raise KeyboardInterrupt
    if code in (pytest.ExitCode.INTERNAL_ERROR, pytest.ExitCode.USAGE_ERROR):
        raise KitError(f"{course.graders_dir}: pytest could not run the graders (exit {int(code)})")
    return results
