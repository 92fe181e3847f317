"""`attnkit gradescope`: the command line over `attnkit.gradescope.export`."""
from __future__ import annotations

from pathlib import Path

import click

from attnkit.console import Console


@click.command()
@click.option("--out", required=True, type=click.Path(path_type=Path, file_okay=False),
              help="Folder for autograder.zip (an earlier one there is replaced).")
def gradescope(out: Path) -> None:
    """Write OUT/autograder.zip for Gradescope: setup.sh, run_autograder and what grading needs."""
    from attnkit.config import course_here
    from attnkit.gradescope.export import write_autograder

    path = write_autograder(course_here(), out)
    Console.current().line(f"Wrote {path}: upload it as the assignment's autograder on Gradescope "
                           "(it holds the solutions: keep it from students)")
