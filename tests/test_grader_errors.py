"""A course's own mistakes in its graders stop `attnkit grade` with one line naming the grader, exit 2.

The plugin runs the checks itself (pytest collects the graders; `GradingPlugin.pytest_runtestloop`
runs them), so what pytest's runner would otherwise report is said here: a grader that does not
import, a check course.toml lists that no grader defines, a check asking for a fixture the kit does
not provide or parametrized by pytest, and a grader that raises. Each is the course author's to mend,
never a student's zero, and each is said in one line. Every case is the second course
(tests/courses/causal) with one grader edited, graded in process on its reference (the run stops
before any sandbox matters), and one through the real command line.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from attnkit.config import load_course
from attnkit.errors import KitError
from attnkit.grading.catalogue import load_catalogue
from attnkit.grading.oracle import ReferenceOracle
from attnkit.grading.plugin import Submission
from attnkit.grading.session import run_checks
from kit import InProcessSandbox

CAUSAL = Path(__file__).resolve().parent / "courses" / "causal"
SCORES_GRADER = "graders/test_scores.py"
EDITS = {  # what the course author wrote -> what the one line names
    "a grader that does not import": ("def test_non_square(attempt, rng):", "def test_non_square(attempt, rng)",
                                      "test_scores.py: SyntaxError"),
    "a check no grader defines": ("def test_non_square(", "def test_not_square(",
                                  "course.toml lists checks no grader defines: scores.test_non_square"),
    "a fixture the kit does not provide": ("def test_non_square(attempt, rng):",
                                          "def test_non_square(attempt, rng, tmp_path):",
                                          "test_non_square: asks for the fixture 'tmp_path'"),
    "a parametrized check": ("def test_non_square(attempt, rng):",
                             "@pytest.mark.parametrize('n', [5, 6])\ndef test_non_square(attempt, rng, n):",
                             "test_non_square[5]: a check cannot be parametrized"),
    "a grader that raises": ('    """5 queries against 11 keys',
                             '    {}["no such key"]\n    """5 queries against 11 keys',
                             "grader error: test_scores.py::test_non_square (student): KeyError: 'no such key'"),
}


@pytest.fixture(autouse=True)
def graders_imported_here_are_forgotten(tmp_path):
    """pytest imports a grader once a process, by its name (`test_scores`): each case's copy is its own."""
    yield
    for name, module in list(sys.modules.items()):
        if str(getattr(module, "__file__", "") or "").startswith(str(tmp_path)):
            del sys.modules[name]


def broken_course(tmp_path: Path, old: str, new: str) -> Path:
    """The second course, one grader edited (`old` -> `new`, with `import pytest` for the marks)."""
    course_dir = shutil.copytree(CAUSAL, tmp_path / "course", ignore=shutil.ignore_patterns("__pycache__"))
    grader = course_dir / SCORES_GRADER
    source = grader.read_text()
    assert old in source
    grader.write_text("import pytest\n" + source.replace(old, new))
    return course_dir


@pytest.mark.parametrize("old, new, named", EDITS.values(), ids=EDITS.keys())
def test_a_broken_grader_stops_the_run_naming_it(tmp_path, old, new, named):
    course = load_course(broken_course(tmp_path, old, new) / "course.toml")
    student = shutil.copytree(course.solutions_dir, tmp_path / "student" / "exercises").parent
    oracle = ReferenceOracle(course.solutions_dir, course.mistakes_dir, load_catalogue(course.mistakes_dir).mistakes)
    with pytest.raises(KitError) as raised:
        run_checks(course, [Submission("student", student)], oracle=oracle, open_sandbox=InProcessSandbox)
    assert named in str(raised.value) and "\n" not in str(raised.value)


def test_attnkit_grade_says_it_in_one_line_and_exits_2(tmp_path):
    old, new, named = EDITS["a fixture the kit does not provide"]
    course_dir = broken_course(tmp_path, old, new)
    shutil.copytree(course_dir / "solutions", tmp_path / "class" / "alice" / "exercises")
    done = subprocess.run(["attnkit", "grade", str(tmp_path / "class"), "--out", str(tmp_path / "out")],
                          cwd=course_dir, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert named in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_check_that_raises_scores_nothing(tmp_path):
    old, new, _ = EDITS["a grader that raises"]
    course = load_course(broken_course(tmp_path, old, new) / "course.toml")
    student = shutil.copytree(course.solutions_dir, tmp_path / "student" / "exercises").parent
    oracle = ReferenceOracle(course.solutions_dir, course.mistakes_dir, load_catalogue(course.mistakes_dir).mistakes)
    results = []
    with pytest.raises(KitError):
        run_checks(course, [Submission("student", student)], oracle=oracle, open_sandbox=InProcessSandbox,
                   on_result=results.append)
    [check] = [c for c in results[0].exercises["scores"].checks if c.test == "test_non_square"]
    assert (check.passed, check.points, check.mistakes) == (False, 0.0, ["malformed-reply"])
