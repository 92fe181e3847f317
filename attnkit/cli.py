"""The `attnkit` command line: thin click wrappers over the library.

Exit status: 0 success, 1 checks failed, 2 bad usage or bad input (one line,
never a traceback).
"""
from __future__ import annotations

import getpass
import json
import os
import re
import sys
import tempfile
import zipfile
from pathlib import Path

import click

from attnkit.config import Course, course_here
from attnkit.errors import KitError
from attnkit.gradebook import GRADES, Gradebook, broken_result
from attnkit.grading.plugin import Submission
from attnkit.grading.results import SubmissionResult
from attnkit.nbgrader.cli import nbgrader
from attnkit.reports import check_line
from attnkit.submissions import PACKAGE, find_submissions, fingerprint, prepare

STUDENT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


class KitGroup(click.Group):
    """Turns a KitError anywhere below into one line on stderr and exit status 2."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KitError as error:
            click.echo(f"attnkit: error: {error}", err=True)
            ctx.exit(2)


@click.group(cls=KitGroup)
@click.version_option(package_name="attnkit")
def main() -> None:
    """Auto-graded exercises for the self-attention lesson."""


@main.command()
@click.argument("exercise_ids", nargs=-1, metavar="[EXERCISE]...")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
def check(exercise_ids: tuple[str, ...], as_json: bool) -> None:
    """Run the public checks on ./exercises and explain each failure."""
    from attnkit.grading.session import run_checks

    course = course_here()
    here = Path.cwd()
    if not (here / PACKAGE).is_dir():
        raise KitError(f"{here}: no `{PACKAGE}` folder here (run this in your handout folder)")
    with tempfile.TemporaryDirectory(prefix="attnkit-check-") as scratch:
        prepared = prepare(here, Path(scratch))
        if prepared.problem:
            raise KitError(prepared.problem)
        [result] = run_checks(course, [Submission("you", prepared.root)], exercise_ids=exercise_ids or None,
                              public_only=True)
    failed = sum(not c.passed for e in result.exercises.values() for c in e.checks)
    if as_json:
        click.echo(json.dumps(check_json(result, failed), indent=2))
    else:
        print_check(result, failed)
    sys.exit(1 if failed else 0)


def check_json(result: SubmissionResult, failed: int) -> dict:
    record = result.to_json()
    total = sum(len(e.checks) for e in result.exercises.values())
    return {"exercises": record["exercises"], "passed": total - failed, "failed": failed,
            "output": record["output"], "note": "public checks only; hidden checks run at grading"}


def print_check(result: SubmissionResult, failed: int) -> None:
    total = 0
    for exercise_id, exercise in result.exercises.items():
        for check in exercise.checks:
            total += 1
            colour = "green" if check.passed else "red"
            line = check_line(exercise_id, check)
            click.echo(click.style(line[0], fg=colour) + line[1:] + ("" if check.passed else f": {check.message}"))
            if not check.passed and check.hint:
                click.echo(f"    hint: {check.hint}")
    if failed:
        click.echo(click.style(f"{failed} of {total} public checks failed.", fg="red"))
    else:
        click.echo(click.style(f"All {total} public checks passed; hidden checks run at grading.", fg="green"))


@main.command()
@click.argument("submissions", type=click.Path(path_type=Path))
@click.option("--out", required=True, type=click.Path(path_type=Path, file_okay=False),
              help="Folder for grades.csv and feedback/.")
@click.option("--jobs", type=click.IntRange(min=1), default=os.cpu_count() or 1, show_default="number of cores",
              help="Submissions graded in parallel.")
@click.option("--force", is_flag=True, help="Grade again even submissions unchanged since the last run.")
def grade(submissions: Path, out: Path, jobs: int, force: bool) -> None:
    """Grade every submission under SUBMISSIONS with the hidden graders."""
    from attnkit.grading.parallel import grade_all

    course = course_here()
    gradebook = Gradebook(out, course)
    with tempfile.TemporaryDirectory(prefix="attnkit-grade-") as scratch:
        prepared = find_submissions(submissions, Path(scratch), course)
        version = graders_version(course)
        todo, skipped = [], 0
        for item in prepared:
            item.fingerprint = f"{version}:{item.fingerprint or item.problem}"
            if not force and gradebook.is_current(item.student, item.fingerprint):
                skipped += 1
            elif item.problem:
                gradebook.record(broken_result(course, item.student, item.problem, item.fingerprint))
                click.echo(f"attnkit: {item.student}: not graded: {item.problem}", err=True)
            else:
                todo.append(Submission(item.student, item.root, item.fingerprint))
        graded = []
        with progress(len(todo)) as bar:
            def on_result(result: SubmissionResult) -> None:
                gradebook.record(result)
                graded.append(result.student)
                bar.update(1)

            try:
                grade_all(course, todo, jobs=jobs, on_result=on_result)
            except KeyboardInterrupt:
                click.echo(f"\nattnkit: interrupted after {len(graded)} of {len(todo)} submission(s); "
                           f"{out / GRADES} holds them: run the same command again to grade the rest", err=True)
                sys.exit(130)
    click.echo(f"Graded {len(todo)} submission(s), {skipped} unchanged and skipped, "
               f"{sum(bool(p.problem) for p in prepared)} broken: {out / GRADES}")


class _Silent:
    """Stands in for the progress bar when stderr is not a terminal."""

    def __enter__(self) -> "_Silent":
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, steps: int) -> None:
        return None


def progress(length: int):
    """A progress bar on a terminal; nothing when output goes to a file or a pipe."""
    if sys.stderr.isatty():
        return click.progressbar(length=length, label="grading", file=sys.stderr)
    return _Silent()


def graders_version(course: Course) -> str:
    """A digest of everything that decides a grade, so changed graders regrade everyone."""
    folders = [course.graders_dir, course.solutions_dir, course.mistakes_dir]
    paths = {p for folder in folders if folder.is_dir() for p in folder.rglob("*")
             if p.is_file() and "__pycache__" not in p.parts}
    paths.add(course.root / "course.toml")
    return fingerprint({str(p.relative_to(course.root)): p.read_bytes() for p in paths})[:16]


@main.command()
@click.option("--out", required=True, type=click.Path(path_type=Path, file_okay=False),
              help="A new folder for the handout.")
def handout(out: Path) -> None:
    """Write the student handout: stubs, public checks and a README."""
    from attnkit.handout import write_handout

    write_handout(course_here(), out)
    click.echo(f"Handout written to {out}")


@main.command()
@click.option("--student", default=lambda: os.environ.get("ATTNKIT_STUDENT") or getpass.getuser(),
              show_default="$ATTNKIT_STUDENT or your login name", help="Your student id: the zip's name.")
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), default=".", help="Where to write the zip.")
def submit(student: str, out: Path) -> None:
    """Pack ./exercises into <student>.zip for upload."""
    if not STUDENT_ID.match(student):
        raise KitError(f"--student {student!r}: use letters, digits, '.', '_' or '-'")
    package = Path.cwd() / PACKAGE
    sources = sorted(p for p in package.glob("*.py") if p.is_file() and not p.is_symlink()) if package.is_dir() else []
    if not sources:
        raise KitError(f"{package}: no `{PACKAGE}` folder with .py files here (run this in your handout folder)")
    target = out / f"{student}.zip"
    out.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sources:
            archive.write(path, f"{PACKAGE}/{path.name}")
    click.echo(f"Wrote {target} ({len(sources)} files); upload it.")


main.add_command(nbgrader)
