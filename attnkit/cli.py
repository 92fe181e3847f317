"""The `attnkit` command line: each command parses, calls one library function, and prints.

Exit status: 0 success, 1 checks failed, 2 bad usage or bad input (one line, never a traceback),
130 after Ctrl-C and 143 after SIGTERM (`timeout`, CI, a job scheduler), which is handled as Ctrl-C is
(one line saying what was kept). Every text a student controls is escaped
(`attnkit.escaping`) before it is printed.
"""
from __future__ import annotations

import getpass
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from attnkit.console import Console
from attnkit.errors import KitError
from attnkit.escaping import terminal, terminal_line
from attnkit.gradescope.cli import gradescope
from attnkit.interrupts import exit_status, terminate_as_interrupt, terminated
from attnkit.nbgrader.cli import nbgrader
from attnkit.sandbox import parent

if TYPE_CHECKING:  # imported where they are used: `check` starts the sandboxes' parent before they load
    from attnkit.class_grading import ClassRun
    from attnkit.config import Course
    from attnkit.self_check import SelfCheck

OUTPUT_SHOWN = 2000  # characters of the student's own printed output that `check` shows
TOP_MISTAKES = 5
NO_ARGUMENTS = getattr(click.exceptions, "NoArgsIsHelpError", ())  # click 8.2+: `attnkit` alone shows the help


class KitGroup(click.Group):
    """One line on stderr for every bad usage or input (exit 2) and for Ctrl-C or SIGTERM (exit 130, 143)."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            with terminate_as_interrupt():
                code = super().main(args, prog_name, complete_var, False, **extra)
        except NO_ARGUMENTS as error:
            error.show()
            sys.exit(error.exit_code)
        except click.ClickException as error:
            context = getattr(error, "ctx", None)
            where = " ".join(["attnkit", *(context.command_path.split()[1:] if context else [])])
            message = " ".join(error.format_message().split())
            _fail(f"{message} (see {where} --help)", 2)
        except click.Abort:
            _stopped("aborted")
        sys.exit(code or 0)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KitError as error:
            _fail(str(error), 2)
        except BrokenPipeError:
            raise
        except OSError as error:  # the file system refused: a bad input or place, not a bug
            _fail(f"{error.filename or 'attnkit'}: {error.strerror or error}", 2)
        except KeyboardInterrupt:
            _stopped("terminated" if terminated() else "interrupted")


def _fail(message: str, status: int) -> NoReturn:
    Console.from_environment().error(message)
    sys.exit(status)


def _stopped(message: str) -> NoReturn:
    """Ctrl-C or SIGTERM: one line saying what was kept, and 128 + the signal's number."""
    Console.from_environment().warn(message)
    sys.exit(exit_status())


@click.group(cls=KitGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="attnkit")
@click.pass_context
def main(context: click.Context) -> None:
    """Auto-graded exercises for the self-attention lesson."""
    context.obj = console = Console.from_environment()
    before, parent.warning_sink = parent.warning_sink, console.warn  # the sandbox's warnings print here too
    context.call_on_close(lambda: setattr(parent, "warning_sink", before))  # and only while this command runs


# --- check ---------------------------------------------------------------------------------------


class CheckCommand(click.Command):
    """`check --help` ends with the exercise ids of the course here (the handout's, for a student)."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from attnkit.config import find_course_file, load_course

        try:
            ids = ", ".join(exercise.id for exercise in load_course(find_course_file(Path.cwd())).exercises)
            text = f"EXERCISE is one of: {ids}."
        except KitError:
            text = "EXERCISE is an exercise id of your handout: run `attnkit check -h` in its folder to list them."
        formatter.write_paragraph()
        formatter.write_text(text)


@main.command(cls=CheckCommand)
@click.argument("exercise_ids", nargs=-1, metavar="[EXERCISE]...")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.pass_obj
def check(console: Console, exercise_ids: tuple[str, ...], as_json: bool) -> None:
    """Run the public checks on ./exercises and explain each failure."""
    parent.prewarm()  # first: the sandbox's torch import overlaps the kit's imports and collecting the checks
    from attnkit.config import find_course_file, load_course
    from attnkit.self_check import check_folder

    run = check_folder(Path.cwd(), exercise_ids)
    note = unchecked_exposure_note(load_course(find_course_file(Path.cwd())))
    if note:
        console.note(note)
    if as_json:
        console.line(json.dumps(run.to_json(), indent=2))
    else:
        print_check(run, console)
    sys.exit(1 if run.failed else 0)


def unchecked_exposure_note(course: Course) -> str:
    """Where namespaces are refused, the one line `check` says instead of refusing as `grade` would: a
    student checking their own work has nothing to hide from their own code. Said only where there is
    something `grade` would hide (a course with its reference: not a handout's, on a student's laptop)."""
    from attnkit.sandbox import isolation

    refusal = isolation.probe() if course.solutions_dir.is_dir() else None
    if refusal is None:
        return ""
    return (f"attnkit: note: your code runs without namespaces here ({refusal}); that is fine for checking "
            "your own work, so the course is not checked for what your code could read")


def print_check(run: SelfCheck, console: Console) -> None:
    """One line per check (wrapped to the console's width), the hint of each failure, the student's own
    output, a summary."""
    from attnkit.reports import MESSAGE_LIMIT, check_line, plural

    say = console.say
    for exercise_id, exercise in run.result.exercises.items():
        for item in exercise.checks:
            line = check_line(exercise_id, item)
            say(line if item.passed else f"{line}: {terminal_line(item.message, MESSAGE_LIMIT)}",
                "green" if item.passed else "red")
            if not item.passed and item.location is not None:
                say(f"    where: {terminal_line(item.location.describe(), MESSAGE_LIMIT)}", indent="          ")
            if not item.passed and item.hint:
                say(f"    hint: {terminal_line(item.hint, MESSAGE_LIMIT)}", indent="          ")
    if run.result.output.strip():
        console.line(f"\nYour code printed this (your own output, not the kit's; at most {OUTPUT_SHOWN} characters):")
        for printed in terminal(run.result.output.strip(), OUTPUT_SHOWN).splitlines():
            console.line(f"  | {printed}")
        console.line()
    checks = plural(run.total, "public check")
    if run.failed:
        say(f"{run.failed} of {checks} failed.", "red")
    elif run.total:
        say(f"{'The' if run.total == 1 else 'All'} {checks} passed; hidden checks run at grading.", "green")
    else:
        say("No public checks for these exercises; hidden checks run at grading.")
    for note in run.notes:
        say(note)


# --- grade ---------------------------------------------------------------------------------------


@main.command()
@click.argument("submissions", type=click.Path(path_type=Path))
@click.option("--out", required=True, type=click.Path(path_type=Path, file_okay=False),
              help="Folder for grades.csv, feedback/ and the class report (not inside SUBMISSIONS).")
@click.option("--jobs", type=click.IntRange(min=1), default=os.cpu_count() or 1, show_default="number of cores",
              help="Submissions graded in parallel.")
@click.option("--force", is_flag=True,
              help="Grade again even submissions unchanged since the last run, and overwrite a grades.csv "
                   "attnkit did not write (or that was edited since).")
@click.option("--unisolated", is_flag=True,
              help="Where namespaces are refused (a container), grade even if student code could read the "
                   "course or --out: accept that risk.")
@click.option("--new-inputs", is_flag=True,
              help="Draw new hidden inputs (a new seed in OUT/hidden-inputs.seed) and grade everyone again; "
                   "without it a regrade asks the same hidden questions as the last run on OUT.")
@click.pass_obj
def grade(console: Console, submissions: Path, out: Path, jobs: int, force: bool, unisolated: bool,
          new_inputs: bool) -> None:
    """Grade every submission under SUBMISSIONS with the hidden graders."""
    from attnkit.class_grading import GradingInterrupted, grade_class
    from attnkit.class_report import REPORT_HTML
    from attnkit.config import course_here
    from attnkit.progress import TerminalProgress

    progress = TerminalProgress(console)
    try:
        run = grade_class(course_here(), submissions, out, jobs=jobs, force=force, new_inputs=new_inputs,
                          listener=progress, unisolated=unisolated)
    except GradingInterrupted as stop:
        progress.finish()
        _stopped(interrupted_line(stop.run))
    progress.finish()
    console.line(f"{run.grades}: {run.counts.sentence()}; this run: {run.graded + run.broken} done, "
                 f"{run.skipped} unchanged and kept")
    if run.report is not None:
        console.line(f"Class report: {run.out / REPORT_HTML}")
        print_top_mistakes(run, console)


def interrupted_line(run: ClassRun) -> str:
    """What was kept: from the gradebook as saved (students recorded by an earlier run, or broken ones
    recorded before grading began, count too)."""
    stopped = "terminated" if terminated() else "interrupted"
    if not run.counts.students:
        return f"{stopped} before any submission was graded: run the same command again"
    return (f"{stopped} after {run.graded} of {run.todo} submission(s) to grade; {run.grades} holds "
            f"{run.counts.sentence()}; run the same command again to grade the rest")


def print_top_mistakes(run: ClassRun, console: Console) -> None:
    from attnkit.reports import plural

    top = run.report.top_mistakes(TOP_MISTAKES) if run.report else []
    if top:
        console.line("Most common mistakes:")
    for exercise, mistake in top:
        console.line(f"  {plural(mistake.count, 'student'):>12}  {terminal_line(mistake.id)} ({exercise.id})")
    groups = run.report.top_unexplained(TOP_MISTAKES) if run.report else []
    if groups:
        console.line("Largest groups computing the same uncatalogued wrong answer (see the report):")
    for group in groups:
        console.line(f"  {plural(group.size, 'student'):>12}  {terminal_line(group.exercise)}: "
                     f"{terminal_line(', '.join(group.checks))}")


# --- report --------------------------------------------------------------------------------------


@main.command()
@click.argument("out", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.pass_obj
def report(console: Console, out: Path) -> None:
    """Write OUT/report.json and OUT/report.html from a graded OUT."""
    from attnkit.class_report import REPORT_HTML, REPORT_JSON, write_report
    from attnkit.config import course_here

    write_report(out, course_here())
    console.line(f"Wrote {out / REPORT_JSON} and {out / REPORT_HTML}")


@main.command(name="export")
@click.argument("out", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option("--to", "system", required=True, type=click.Choice(["canvas", "moodle"]),
              help="The learning management system whose gradebook import file to write.")
@click.option("--roster", required=True, type=click.Path(path_type=Path, exists=True, dir_okay=False),
              help="The gradebook CSV that system exports: who is enrolled, under its ids.")
@click.option("--assignment", default=None, show_default="the course's lesson",
              help="The assignment column's name (an existing column's header fills that assignment).")
@click.pass_obj
def export(console: Console, out: Path, system: str, roster: Path, assignment: str | None) -> None:
    """Write OUT/<system>-grades.csv for the LMS's grade import, each student matched to the roster; ids that
    match no roster row, and roster rows with no submission, are listed on stderr."""
    from attnkit.config import course_here
    from attnkit.gradebook import FEEDBACK, Gradebook, write_atomically
    from attnkit.lms_export import export_gradebook, read_roster

    course = course_here()
    results = Gradebook(out, course).results.values()
    if not results:
        raise KitError(f"{out / FEEDBACK}: no graded students here (run attnkit grade first)")
    made = export_gradebook(system, read_roster(roster, system), results, assignment or course.lesson,
                            course.max_total)
    target = out / f"{system}-grades.csv"
    write_atomically(target, made.text)
    for student in made.unmatched:
        console.warn(f"{student}: graded, but matches no row of {roster.name}; not in {target.name}")
    for name in made.missing:
        console.warn(f"{name}: on the roster with no submission; left blank in {target.name}")
    how = f" (import it matching on {made.identifier!r})" if made.identifier else ""
    console.line(f"Wrote {target}{how}")


@main.group()
def catalogue() -> None:
    """The mistake catalogue: draft new entries from what a graded class shows."""


@catalogue.command()
@click.argument("out", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.argument("exercise")
@click.argument("group", type=click.IntRange(min=1))
@click.option("--submissions", type=click.Path(path_type=Path, exists=True, file_okay=False), default=None,
              show_default="no code shown", help="The class folder graded: shows the group's first student's code.")
@click.pass_obj
def draft(console: Console, out: Path, exercise: str, group: int, submissions: Path | None) -> None:
    """Print a catalogue entry for graders/mistakes/<exercise>.toml from GROUP (1 = the largest) of the report's
    mistakes nobody catalogued, its evidence filled in and the author's fields left TODO."""
    from attnkit.catalogue_draft import draft_entry
    from attnkit.config import course_here

    console.line(draft_entry(course_here(), out, exercise, group, submissions).rstrip("\n"))


# --- handout and submit --------------------------------------------------------------------------


@main.command()
@click.option("--out", required=True, type=click.Path(path_type=Path, file_okay=False),
              help="A new folder for the handout.")
@click.pass_obj
def handout(console: Console, out: Path) -> None:
    """Write the student handout: stubs, public checks and a README."""
    from attnkit.config import course_here
    from attnkit.handout import write_handout

    write_handout(course_here(), out)
    console.line(f"Handout written to {out}")


@main.command()
@click.option("--student", default=lambda: os.environ.get("ATTNKIT_STUDENT") or getpass.getuser(),
              show_default="$ATTNKIT_STUDENT or your login name", help="Your student id: the zip's name.")
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), default=".", show_default="this folder",
              help="Where to write the zip.")
@click.pass_obj
def submit(console: Console, student: str, out: Path) -> None:
    """Pack ./exercises into <student>.zip for upload (warning about stubs and modules that do not parse)."""
    from attnkit.packing import pack_submission

    packed = pack_submission(Path.cwd(), student, out)
    for warning in packed.warnings:
        console.warn(f"warning: {warning}")
    console.line(f"Wrote {packed.path} ({len(packed.files)} files); upload it.")


# --- command groups of their own: one line each ---------------------------------------------------

main.add_command(nbgrader)
main.add_command(gradescope)
