"""`attnkit nbgrader ...`: the course as an nbgrader assignment (the main CLI registers this group)."""
from __future__ import annotations

from pathlib import Path

import click

from attnkit.console import Console
from attnkit.nbgrader import TIMEOUT_MARGIN


@click.group()
def nbgrader() -> None:
    """Run the exercises as an nbgrader assignment."""


@nbgrader.command()
@click.option("--course-dir", required=True, type=click.Path(path_type=Path, file_okay=False),
              help="The nbgrader course folder to write (nbgrader_config.py, source/).")
@click.option("--assignment", default=None, show_default="the lesson's name, e.g. self_attention",
              help="Assignment name.")
@click.option("--course-id", default=None, show_default="the course's name", help="nbgrader course id.")
@click.option("--timeout", type=click.IntRange(min=5), default=None,
              show_default=f"course.toml's call_timeout + {TIMEOUT_MARGIN}: "
                           f"{TIMEOUT_MARGIN + 10} for call_timeout = 10",
              help="Seconds a notebook cell may run at autograde (nbgrader's Execute.timeout).")
@click.option("--force", is_flag=True, help="Rebuild an existing course's config and source notebook.")
def build(course_dir: Path, assignment: str | None, course_id: str | None, timeout: int | None, force: bool) -> None:
    """Write nbgrader_config.py and the source notebook from course.toml."""
    from attnkit.config import course_here
    from attnkit.nbgrader.build import build_course

    source = build_course(course_here(), course_dir, assignment=assignment, course_id=course_id,
                          timeout=timeout, force=force)
    name = source.name
    Console.current().line(f"Wrote {course_dir / 'nbgrader_config.py'} and {source}/\n"
                           f"Next, in {course_dir}: nbgrader generate_assignment {name}; collect notebooks into "
                           f"submitted/<student>/{name}/; nbgrader autograde {name}; nbgrader generate_feedback {name};"
                           f" nbgrader export")


@nbgrader.command()
@click.option("--course-dir", required=True, type=click.Path(path_type=Path, exists=True, file_okay=False),
              help="The nbgrader course folder, after `nbgrader generate_assignment`.")
@click.option("--assignment", default=None, show_default="the course folder's only assignment",
              help="The assignment's name.")
@click.option("--student", default="model-student", show_default=True, help="Student id to submit as.")
def sample(course_dir: Path, assignment: str | None, student: str) -> None:
    """Submit the release with the reference's answers, to try the pipeline before students do."""
    import nbformat

    from attnkit.nbgrader.samples import only_assignment, solved_notebook

    assignment = assignment or only_assignment(course_dir)
    folder = course_dir / "submitted" / student / assignment
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(solved_notebook(course_dir, assignment), folder / f"{assignment}.ipynb")
    Console.current().line(f"Wrote {folder / f'{assignment}.ipynb'}")


@nbgrader.command()
@click.argument("assignment_dir", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option("--out", required=True, type=click.Path(path_type=Path, file_okay=False),
              help="Folder to write the `exercises` package into.")
def extract(assignment_dir: Path, out: Path) -> None:
    """Write the `exercises` package from one student's notebooks (ASSIGNMENT_DIR)."""
    from attnkit.config import course_here
    from attnkit.nbgrader.extract import extract_exercises

    extract_exercises(assignment_dir, out, course_here())
    Console.current().line(f"Wrote {out / 'exercises'}")
