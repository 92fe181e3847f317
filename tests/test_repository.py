"""What the course repository keeps out of its commits: what working in it makes.

A virtual environment, the handout, the students' work, their grades and feedback, an nbgrader
course folder and Gradescope's autograder.zip (which holds the solutions) are written where the
README and docs/nbgrader.md say to write them, inside the repository; a `git add .` must take none.
"""
from __future__ import annotations

import shutil
import subprocess

import pytest

from kit import REPO

MADE_HERE = [".venv/bin/python", "venv/bin/python", "handout/exercises/softmax.py", "submissions/alice.zip",
             "grades/grades.csv", "grades/feedback/alice.md", "nbgrader-grades/grades.csv",
             "nbgrader-course/submitted/alice/x.ipynb", "nbgrader-course/feedback/alice/self_attention/x.html",
             "gradescope/autograder.zip", "elsewhere/autograder.zip"]


@pytest.mark.skipif(shutil.which("git") is None or not (REPO / ".git").exists(), reason="not a git checkout")
@pytest.mark.parametrize("path", MADE_HERE)
def test_what_working_in_the_repository_makes_is_kept_out_of_commits(path):
    ignored = subprocess.run(["git", "check-ignore", "-q", "--no-index", path], cwd=REPO)
    assert ignored.returncode == 0, f"{path} would be committed"


@pytest.mark.skipif(shutil.which("git") is None or not (REPO / ".git").exists(), reason="not a git checkout")
@pytest.mark.parametrize("path", ["exercises/softmax.py", "solutions/cake.py", "tests/students/README.md",
                                  "examples/class/README.md"])
def test_the_course_itself_is_not_ignored(path):
    assert subprocess.run(["git", "check-ignore", "-q", "--no-index", path], cwd=REPO).returncode == 1
