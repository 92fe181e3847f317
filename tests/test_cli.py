"""The command line as students and instructors use it: outputs, files and exit statuses."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from attnkit.cli import main
from kit import COURSE, REPO, reference_submission


def run(args: list[str], cwd: Path):
    """Invoke the CLI in-process (click's CliRunner) from `cwd`."""
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(main, args, catch_exceptions=False)
    finally:
        os.chdir(old)


def test_help_lists_every_command():
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    for command in ("check", "grade", "handout", "submit"):
        assert re.search(rf"^\s+{command}\s", result.output, re.M)


@pytest.mark.parametrize("args,where,problem", [
    (["grade", "nowhere", "--out", "out"], "nowhere", "no such file or folder"),
    (["check"], "", "no `exercises` folder here"),
    (["submit", "--student", "x"], "exercises", "no `exercises` folder"),
    (["submit", "--student", "../x"], "--student", "use letters"),
    (["check", "no-such-exercise"], "course.toml", "no exercise 'no-such-exercise'"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, where, problem):
    shutil.copy(REPO / "course.toml", tmp_path / "course.toml")
    shutil.copytree(REPO / "graders", tmp_path / "graders")
    shutil.copytree(REPO / "solutions", tmp_path / "solutions")
    if args[:2] == ["check", "no-such-exercise"]:
        reference_submission(tmp_path)
    result = run(args, tmp_path)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output
    assert where in lines[0] and problem in lines[0]


def test_a_malformed_course_toml_is_refused_before_anything_runs(tmp_path):
    (tmp_path / "course.toml").write_text("[course]\nname = 3\n")
    result = run(["grade", ".", "--out", "out"], tmp_path)
    assert result.exit_code == 2
    assert "course.toml: course.name: expected a string" in result.output
    assert not (tmp_path / "out").exists()


def test_submit_packs_only_the_package_sources(tmp_path):
    reference_submission(tmp_path)
    (tmp_path / "exercises" / "__pycache__").mkdir()
    (tmp_path / "exercises" / "__pycache__" / "x.pyc").write_bytes(b"\0")
    result = run(["submit", "--student", "alice"], tmp_path)
    assert result.exit_code == 0, result.output
    names = zipfile.ZipFile(tmp_path / "alice.zip").namelist()
    assert sorted(names) == sorted(f"exercises/{p.name}" for p in COURSE.solutions_dir.glob("*.py"))


@pytest.fixture(scope="module")
def handout(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("handout") / "handout"
    result = subprocess.run(["attnkit", "handout", "--out", str(out)], cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return out


def code_lines(path: Path) -> set[str]:
    """The lines of a module that compute something (not imports, defs, comments or blank)."""
    lines = set()
    for line in path.read_text().splitlines():
        text = line.strip()
        if len(text) > 12 and not text.startswith(("#", "import", "from", "def ", "class ", '"""', "super()")):
            lines.add(text)
    return lines


def test_handout_holds_no_solution_and_no_hidden_check(handout):
    texts = {p: p.read_text(errors="replace") for p in handout.rglob("*") if p.is_file()}
    hidden = [c.test for e in COURSE.exercises for c in e.checks if not c.public]
    solution_lines = set().union(*(code_lines(p) for p in COURSE.solutions_dir.glob("*.py")))
    stub_lines = set().union(*(code_lines(p) for p in COURSE.exercises_dir.glob("*.py")))
    for path, text in texts.items():
        assert not [t for t in hidden if t in text], path
        assert not [line for line in solution_lines - stub_lines if line in text], path
    assert not (handout / "solutions").exists()


@pytest.mark.slow
def test_check_in_the_handout_explains_the_stubs_then_passes_the_reference(handout, tmp_path):
    work = tmp_path / "student"
    shutil.copytree(handout, work)
    first = subprocess.run(["attnkit", "check"], cwd=work, capture_output=True, text=True)
    assert first.returncode == 1
    lines = [line for line in first.stdout.splitlines() if line.startswith(("✓", "✗"))]
    assert len(lines) == sum(len(e.public_checks) for e in COURSE.exercises)
    assert all("[not-implemented]" in line for line in lines)
    assert "\x1b[" not in first.stdout  # no colour when not a terminal
    shutil.rmtree(work / "exercises")
    shutil.copytree(COURSE.solutions_dir, work / "exercises")
    second = subprocess.run(["attnkit", "check", "--json"], cwd=work, capture_output=True, text=True)
    assert second.returncode == 0, second.stdout
    report = json.loads(second.stdout)
    assert report["failed"] == 0 and "hidden checks run at grading" in report["note"]


@pytest.mark.slow
def test_check_names_a_mistake_in_the_handout(handout, tmp_path):
    work = tmp_path / "student"
    shutil.copytree(handout, work)
    shutil.rmtree(work / "exercises")
    shutil.copytree(COURSE.solutions_dir, work / "exercises")
    softmax = work / "exercises" / "softmax.py"
    softmax.write_text(softmax.read_text().replace("dim=dim", "dim=0"))
    result = subprocess.run(["attnkit", "check", "softmax"], cwd=work, capture_output=True, text=True)
    assert result.returncode == 1
    assert "softmax-wrong-dim" in result.stdout and "dim 0" in result.stdout and "hint:" in result.stdout
