"""The README's first run: one command grades the sample class in examples/class/, as the README shows.

The command is read from the README (the indented line under "A first run" that starts `attnkit grade`)
and run once, its output folder moved into this test's own; what it printed and the grades.csv it wrote
must be what the README shows a newcomer.
"""
from __future__ import annotations

import shlex
import subprocess

import pytest

from kit import REPO

pytestmark = pytest.mark.slow
README = REPO / "README.md"
CLASS = REPO / "examples" / "class"


def first_run_section() -> list[str]:
    text = README.read_text(encoding="utf-8")
    return text[text.index("## A first run"):].split("\n## ", 1)[0].splitlines()


def shown_blocks() -> list[list[str]]:
    """The section's indented blocks (commands, output, files), each as its lines without the indent."""
    blocks: list[list[str]] = [[]]
    for line in first_run_section():
        if line.startswith("    "):
            blocks[-1].append(line[4:])
        elif blocks[-1]:
            blocks.append([])
    return [block for block in blocks if block]


@pytest.fixture(scope="module")
def first_run(tmp_path_factory):
    command, printed, grades = shown_blocks()[:3]
    args = shlex.split(command[0])
    assert args[:3] == ["attnkit", "grade", "examples/class"] and args[3] == "--out"
    shown_out, out = args[4], tmp_path_factory.mktemp("first-run") / "out"
    process = subprocess.run([*args[:4], str(out)], cwd=REPO, capture_output=True, text=True, timeout=600)
    return process, out, shown_out, printed, grades


def test_the_readme_command_grades_the_sample_class(first_run):
    process, out, shown_out, printed, _ = first_run
    assert process.returncode == 0, process.stderr
    assert process.stdout.splitlines()[0] == printed[0].replace(shown_out, str(out))
    assert process.stderr.strip() == "attnkit: kim: not graded: examples/class/kim.zip: not a zip file"


def test_its_grades_are_those_the_readme_shows(first_run):
    _, out, _, _, grades = first_run
    assert (out / "grades.csv").read_text().splitlines() == grades


def test_it_writes_a_feedback_page_for_every_student_and_the_report(first_run):
    _, out, _, _, grades = first_run
    students = [line.split(",")[0] for line in grades[1:]]
    assert sorted(p.stem for p in (out / "feedback").glob("*.md")) == students
    assert (out / "report.html").is_file() and (out / "report.json").is_file()


def test_the_sample_class_is_a_dozen_realistic_submissions():
    """Correct ones in several styles, mistakes the catalogue names and one it does not, one broken zip:
    every student of the table in examples/class/README.md is in the class, and every submission in it."""
    table = [line.split("|")[1].strip().split()[0] for line in (CLASS / "README.md").read_text().splitlines()
             if line.startswith("| ") and not line.startswith(("| student", "|---"))]
    handed_in = sorted(p.name.removesuffix(".zip") for p in CLASS.iterdir() if p.name != "README.md")
    assert sorted(table) == handed_in and len(handed_in) >= 12


def test_the_sample_class_folder_is_not_taken_for_a_submission(first_run):
    _, out, _, _, grades = first_run
    assert "README" not in {line.split(",")[0] for line in grades}
