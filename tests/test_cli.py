"""The command line as students and instructors use it: outputs, files and exit statuses."""
from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from attnkit.class_grading import ClassRun
from attnkit.class_report import ClassCounts
from attnkit.cli import interrupted_line, main
from attnkit.nbgrader.build import default_timeout
from kit import COURSE, REPO, reference_submission


def run(args: list[str], cwd: Path, env: dict[str, str] | None = None, colour: bool = False):
    """Invoke the CLI in-process (click's CliRunner) from `cwd`; `colour` as if on a colour terminal."""
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner(env=env).invoke(main, args, catch_exceptions=False, color=colour)
    finally:
        os.chdir(old)


COMMANDS = ["check", "grade", "handout", "submit", "report", "nbgrader"]


def test_help_lists_every_command():
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    for command in COMMANDS:
        assert re.search(rf"^\s+{command}\s", result.output, re.M)


def every_command(group=main, path=()):
    for name, command in group.commands.items():
        yield (*path, name)
        yield from every_command(command, (*path, name)) if hasattr(command, "commands") else ()


@pytest.mark.parametrize("path", list(every_command()), ids=" ".join)
def test_every_command_has_help(path):
    result = CliRunner().invoke(main, [*path, "--help"])
    assert result.exit_code == 0 and "Usage: " in result.output and "Options:" in result.output


@pytest.mark.parametrize("args,problem", [
    (["grade"], "Missing argument 'SUBMISSIONS'. (see attnkit grade --help)"),
    (["grade", "class"], "Missing option '--out'."),
    (["grade", "class", "--out", "o", "--jobs", "0"], "Invalid value for '--jobs'"),
    (["no-such-command"], "No such command 'no-such-command'. (see attnkit --help)"),
    (["check", "--colour"], "No such option '--colour'. (see attnkit check --help)"),
    (["report", "nowhere"], "Directory 'nowhere' does not exist"),
])
def test_bad_usage_is_one_line_and_exit_2(tmp_path, args, problem):
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and result.output.startswith("attnkit: error: ")
    assert problem in result.output


@pytest.mark.parametrize("args,where,problem", [
    (["grade", "nowhere", "--out", "out"], "nowhere", "no such file or folder"),
    (["check"], "", "no `exercises` folder here"),
    (["submit", "--student", "x"], "exercises", "no `exercises` folder"),
    (["submit", "--student", "../x"], "--student", "use letters"),
    (["check", "no-such-exercise"], "course.toml", "no exercise 'no-such-exercise'"),
    (["grade", ".", "--out", "grades"], "--out grades", "inside the submissions folder"),
    (["report", "."], "feedback", "no graded students here"),
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


@pytest.fixture
def student(tmp_path) -> Path:
    """A student's folder holding the reference as their work, with the course beside it to check against."""
    for folder in ("graders", "solutions"):
        shutil.copytree(REPO / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "course.toml", tmp_path / "course.toml")
    return reference_submission(tmp_path)


def add_to(module: Path, code: str) -> None:
    module.write_text(module.read_text() + "\n" + code + "\n")


def test_check_shows_what_the_students_code_printed_marked_capped_and_escaped(student):
    add_to(student / "exercises" / "softmax.py", 'print("\\x1b[2J\\u202e hello from my softmax " * 200)')
    result = run(["check", "softmax"], student)
    assert result.exit_code == 0, result.output
    assert "Your code printed this (your own output, not the kit's" in result.output
    [shown] = [line for line in result.output.splitlines() if "hello from my softmax" in line]
    assert shown.startswith("  | \\x1b[2J\\u202e hello") and "\x1b" not in result.output
    assert len(shown) < 3000 and "more characters cut" in shown  # 2,000 of the student's characters, escaped


def test_check_says_1_public_check_in_the_singular(student):
    result = run(["check", "scaled_scores"], student)
    assert result.output.splitlines()[-1] == "The 1 public check passed; hidden checks run at grading."


def test_check_wraps_its_lines_to_the_terminal(student):
    softmax = student / "exercises" / "softmax.py"
    softmax.write_text(softmax.read_text().replace("dim=dim", "dim=0"))
    result = run(["check", "softmax"], student, env={"COLUMNS": "50"})
    assert result.exit_code == 1
    assert max(len(line) for line in result.output.splitlines()) <= 50
    assert "softmax-wrong-dim" in result.output and "hint:" in result.output


def test_check_piped_to_a_file_keeps_whole_lines(student):
    softmax = student / "exercises" / "softmax.py"
    softmax.write_text(softmax.read_text().replace("dim=dim", "dim=0"))
    result = run(["check", "softmax"], student, env={"COLUMNS": None})
    failures = [line for line in result.output.splitlines() if line.startswith("✗")]
    assert failures and all("[softmax-wrong-dim]: " in line and len(line) > 100 for line in failures)


@pytest.mark.parametrize("no_color,coloured", [("1", False), ("", True)])
def test_check_honours_no_color(student, no_color, coloured):
    result = run(["check", "scaled_scores"], student, env={"NO_COLOR": no_color}, colour=True)
    assert ("\x1b[" in result.output) is coloured


def test_check_honours_force_color_into_a_pipe(student):
    result = run(["check", "scaled_scores"], student, env={"FORCE_COLOR": "1"}, colour=False)
    assert "\x1b[" in result.output


def test_submit_warns_about_stubs_and_modules_that_do_not_parse_and_still_packs(tmp_path):
    reference_submission(tmp_path)
    shutil.copy(COURSE.exercises_dir / "softmax.py", tmp_path / "exercises" / "softmax.py")
    shutil.copy(COURSE.exercises_dir / "cake.py", tmp_path / "exercises" / "cake.py")
    (tmp_path / "exercises" / "attention.py").write_text("def attention(Q, K, V)\n    return Q\n")
    result = run(["submit", "--student", "alice"], tmp_path)
    assert result.exit_code == 0
    warnings = result.stderr.splitlines()
    assert any("exercises/softmax.py: still the stub: line" in w and "NotImplementedError" in w for w in warnings)
    assert "attnkit: warning: exercises/cake.py: still the stub: PREDICTED_WEIGHTS is still None" in warnings
    assert any("exercises/attention.py: does not parse (line 1: " in w for w in warnings)
    assert not any("projection.py" in w for w in warnings)
    assert len(zipfile.ZipFile(tmp_path / "alice.zip").namelist()) == len(list(COURSE.solutions_dir.glob("*.py")))


def test_submit_says_nothing_more_of_finished_work(tmp_path):
    reference_submission(tmp_path)
    result = run(["submit", "--student", "alice"], tmp_path)
    assert result.stderr == "" and result.output.startswith("Wrote ")


def test_report_writes_the_class_report_from_a_graded_folder(tmp_path):
    from attnkit.gradebook import Gradebook, broken_result

    Gradebook(tmp_path / "out", COURSE).record(broken_result(COURSE, "eve", "eve.zip: not a zip file"))
    shutil.copy(REPO / "course.toml", tmp_path / "course.toml")
    shutil.copytree(REPO / "graders", tmp_path / "graders")
    result = run(["report", "out"], tmp_path)
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "out" / "report.json").read_text())["students"][0]["student"] == "eve"
    assert (tmp_path / "out" / "report.html").is_file()


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


@pytest.mark.parametrize("path", [(), *every_command()], ids=lambda path: " ".join(path) or "attnkit")
def test_dash_h_is_help(path):
    short, long = (CliRunner().invoke(main, [*path, flag]) for flag in ("-h", "--help"))
    assert short.exit_code == 0 and short.output == long.output


def options_with_defaults():
    for path in every_command():
        command = main
        for name in path:
            command = command.commands[name]
        for param in command.params:
            if isinstance(param, click.Option) and not param.is_flag and not param.required:
                yield pytest.param(param, id=f"{' '.join(path)} {param.opts[0]}")


@pytest.mark.parametrize("option", list(options_with_defaults()))
def test_every_option_with_a_default_shows_it(option):
    assert option.show_default and isinstance(option.show_default, (bool, str))


def test_nbgrader_builds_timeout_default_is_what_it_writes():
    result = CliRunner().invoke(main, ["nbgrader", "build", "--help"])
    ten = dataclasses.replace(COURSE, settings=dataclasses.replace(COURSE.settings, call_timeout=10.0))
    assert f"{default_timeout(ten)} for call_timeout = 10" in " ".join(result.output.split())


def test_check_help_lists_the_exercise_ids_of_the_course_here(tmp_path):
    ids = ", ".join(exercise.id for exercise in COURSE.exercises)
    assert f"EXERCISE is one of: {ids}." in " ".join(run(["check", "--help"], REPO).output.split())
    elsewhere = " ".join(run(["check", "--help"], tmp_path).output.split())
    assert "run `attnkit check -h` in its folder" in elsewhere


def test_check_outside_a_handout_says_to_run_it_in_the_handout_folder(tmp_path):
    result = run(["check"], tmp_path)
    assert result.exit_code == 2 and "run this in your handout folder" in result.output
    assert "course repo" not in result.output


@pytest.mark.parametrize("counts", [ClassCounts(1, 0, 1, 0), ClassCounts(3, 3, 0, 0)],
                         ids=["broken-only", "earlier-run"])
def test_an_interrupt_never_says_nothing_was_graded_when_grades_csv_holds_a_row(tmp_path, counts):
    """A broken submission is recorded before grading starts, and an earlier run's rows are kept: either way
    grades.csv holds rows, though this run graded none."""
    line = interrupted_line(ClassRun(tmp_path, todo=5, counts=counts))
    assert "before any" not in line and f"holds {counts.sentence()}" in line


def test_an_interrupt_before_anything_was_recorded_says_so(tmp_path):
    assert "interrupted before any submission was graded" in interrupted_line(ClassRun(tmp_path, todo=5))
