"""The kit's own code keeps to its lint and type rules (pyproject.toml's [tool.ruff] and [tool.mypy]).

Part of the one test command, so a contributor who runs the README's tests runs these too.
"""
from __future__ import annotations

import subprocess
import sys

from kit import REPO


def test_ruff_finds_nothing():
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "attnkit", "graders", "tests"], cwd=REPO,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_mypy_finds_nothing():
    run = subprocess.run([sys.executable, "-m", "mypy"], cwd=REPO,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
