"""Wall time of `nbgrader autograde` and of `attnkit grade` on the same nbgrader submissions.

    python benchmarks/nbgrader_vs_attnkit.py [--students 6] [--jobs N]

Run in the course repository. Builds an nbgrader course with
`attnkit nbgrader build`, generates the assignment, places N students'
notebooks in `submitted/` (the release with the reference's answers, every
other one with a catalogued mistake typed into its answer cell), then times,
in one run, `nbgrader autograde` and `attnkit grade submitted/` on that same
folder, checks they agree on every student's total, and prints both times.
"""
from __future__ import annotations

import argparse
import csv
import os
import subprocess
import tempfile
import time
from pathlib import Path

import nbformat

from attnkit.config import Course, load_course
from attnkit.grading.catalogue import Variant, load_catalogue
from attnkit.nbgrader.samples import grade_id, solved_notebook

REPO = Path(__file__).resolve().parents[1]


def run(*command: str, cwd: Path) -> float:
    """Run a command to completion; its wall time in seconds."""
    start = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{result.stderr[-2000:]}")
    return time.perf_counter() - start


def answer_cell(notebook: nbformat.NotebookNode, course: Course, module: str) -> nbformat.NotebookNode:
    exercise = next(e for e in course.exercises if e.module == module)
    return next(c for c in notebook.cells if grade_id(c) == f"{exercise.id}-answer")


def fits(notebook: nbformat.NotebookNode, course: Course, variant: Variant) -> bool:
    """Whether a catalogued variant's edits apply to the reference answer typed into its cell."""
    return all(old in answer_cell(notebook, course, variant.module).source for old, _ in variant.edits)


def type_in(notebook: nbformat.NotebookNode, course: Course, variant: Variant) -> None:
    cell = answer_cell(notebook, course, variant.module)
    for old, new in variant.edits:
        cell.source = cell.source.replace(old, new)


def place_students(course: Course, course_dir: Path, assignment: str, students: int) -> None:
    """Students' notebooks: the reference's answers, every other one with a catalogued mistake."""
    template = solved_notebook(course_dir, assignment)
    variants = [v for m in load_catalogue(course.mistakes_dir).with_variants() for v in m.variants
                if fits(template, course, v)]
    for index in range(students):
        notebook = solved_notebook(course_dir, assignment)
        if index % 2:
            type_in(notebook, course, variants[index % len(variants)])
        folder = course_dir / "submitted" / f"student{index:03d}" / assignment
        folder.mkdir(parents=True)
        nbformat.write(notebook, folder / f"{assignment}.ipynb")


def totals(path: Path, student_column: str, score_column: str) -> dict[str, float]:
    with open(path, newline="") as stream:
        return {row[student_column]: float(row[score_column]) for row in csv.DictReader(stream)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=6)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="attnkit grade --jobs")
    args = parser.parse_args()
    course = load_course(REPO / "course.toml")
    assignment = "self_attention"
    with tempfile.TemporaryDirectory(prefix="attnkit-bench-") as scratch:
        course_dir = Path(scratch) / "course"
        run("attnkit", "nbgrader", "build", "--course-dir", str(course_dir), "--assignment", assignment, cwd=REPO)
        run("nbgrader", "generate_assignment", assignment, cwd=course_dir)
        place_students(course, course_dir, assignment, args.students)
        nbgrader_seconds = run("nbgrader", "autograde", assignment, cwd=course_dir)
        run("nbgrader", "export", cwd=course_dir)
        out = Path(scratch) / "attnkit-grades"
        kit_seconds = run("attnkit", "grade", str(course_dir / "submitted"), "--out", str(out),
                          "--jobs", str(args.jobs), cwd=REPO)
        nbgrader_totals = totals(course_dir / "grades.csv", "student_id", "score")
        kit_totals = totals(out / "grades.csv", "student", "total")
    agree = "agree" if nbgrader_totals == kit_totals else f"DISAGREE: {nbgrader_totals} vs {kit_totals}"
    print(f"{args.students} students, {len(course.exercises)} exercises, {os.cpu_count()} cores; totals {agree}")
    print(f"nbgrader autograde:   {nbgrader_seconds:7.1f} s  ({nbgrader_seconds / args.students:.1f} s a student)")
    print(f"attnkit grade ({args.jobs} jobs): {kit_seconds:7.1f} s  ({kit_seconds / args.students:.1f} s a student)")
    print(f"attnkit grade is {nbgrader_seconds / kit_seconds:.1f}x faster")


if __name__ == "__main__":
    main()
