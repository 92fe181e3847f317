"""The grading plugin (attnkit/grading/plugin.py), graded in process on the second course's reference."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from attnkit.config import check_names, load_course
from attnkit.grading.catalogue import load_catalogue
from attnkit.grading.oracle import ReferenceOracle
from attnkit.grading.plugin import Submission
from attnkit.grading.session import run_checks
from kit import InProcessSandbox

CAUSAL = load_course(Path(__file__).resolve().parent / "courses" / "causal" / "course.toml")
ORACLE = ReferenceOracle(CAUSAL.solutions_dir, CAUSAL.mistakes_dir, load_catalogue(CAUSAL.mistakes_dir).mistakes)


class ForgingSandbox(InProcessSandbox):
    """A sandbox whose student process sent a reply that could not be trusted (as the runner marks one)."""

    malformed_reason = "the reply to request 3 is not what was asked"

    def run(self, request, on_standin=None):
        self.malformed = self.malformed_reason
        return super().run(request, on_standin)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    return shutil.copytree(CAUSAL.solutions_dir, tmp_path_factory.mktemp("student") / "exercises").parent


def grade(root: Path, sandbox: type = InProcessSandbox):
    [result] = run_checks(CAUSAL, [Submission("student", root)], oracle=ORACLE, open_sandbox=sandbox)
    return result


def docstring_names() -> dict[tuple[str, str], str]:
    return {(e.id, test): name for e in CAUSAL.exercises for test, name in check_names(CAUSAL.grader_file(e)).items()}


def test_the_reference_earns_every_point_under_the_checks_docstring_names(reference):
    result = grade(reference)
    names = docstring_names()
    for exercise in result.exercises.values():
        assert exercise.score == exercise.max_score
        assert [c.name for c in exercise.checks] == [names[exercise.id, c.test] for c in exercise.checks]


def test_a_malformed_reply_zeroes_every_check_naming_it_as_a_graded_check_is_named(reference):
    result = grade(reference, ForgingSandbox)
    names = docstring_names()
    assert result.problem == ForgingSandbox.malformed_reason
    for exercise in result.exercises.values():
        for check in exercise.checks:
            assert (check.points, check.mistakes) == (0.0, ["malformed-reply"])
            assert check.name == names[exercise.id, check.test] != check.test  # not the test function's name


def test_each_check_draws_public_inputs_alike_and_hidden_ones_per_salt(reference):
    """Hidden inputs come from the run's salt, or from a submission's own (a resubmission's, see gradebook.py)."""
    from attnkit.grading.plugin import GradingPlugin, _StudentState
    checks = {e.id: list(e.checks) for e in CAUSAL.exercises}
    plugins = [GradingPlugin(CAUSAL, load_catalogue(CAUSAL.mistakes_dir), ORACLE, [], checks, InProcessSandbox,
                             lambda r: None, run_salt=salt) for salt in ("one", "one", "two", "one")]
    students = [_StudentState(Submission("ann", reference, salt=salt)) for salt in ("", "", "", "two")]
    exercise = CAUSAL.exercises[0]
    for check in exercise.checks:
        draws = [p._rng(state, exercise, check).random() for p, state in zip(plugins, students)]
        assert draws[0] == draws[1]
        assert (draws[0] == draws[2]) == check.public
        assert draws[2] == draws[3]
