"""From a group of the class report's uncatalogued mistakes to a draft catalogue entry.

`attnkit catalogue draft OUT EXERCISE GROUP` prints a `[mistake.<id>]` table for
`graders/mistakes/<exercise>.toml`: the evidence filled in as comments (the group's size and students,
the checks it fails, what the kit observed of its numbers, a representative's code when the submissions
are at hand), and the fields only an author can write (id, summary, explanation in the lesson's words,
hint, a variant) marked TODO. graders/mistakes/README.md ("From a group to a catalogue entry") says
what to do next: the switch in the mistake model that makes the next run name it.
"""
from __future__ import annotations

import zipfile
from pathlib import Path

from attnkit.class_report import build_report
from attnkit.config import Course
from attnkit.errors import KitError
from attnkit.escaping import terminal_line
from attnkit.gradebook import FEEDBACK, Gradebook
from attnkit.submissions import student_key
from attnkit.unexplained import UnexplainedGroup

CODE_LINES = 60  # lines of a representative's module shown


def draft_entry(course: Course, out: Path, exercise_id: str, number: int, submissions: Path | None = None) -> str:
    """The draft entry for group `number` (1 first, as report.html numbers them) of `exercise_id` in `out`."""
    try:
        exercise = course.exercise(exercise_id)
    except KeyError:
        raise KitError(f"{exercise_id}: no such exercise (course.toml has {', '.join(course.ids)})") from None
    results = list(Gradebook(out, course).results.values())
    if not results:
        raise KitError(f"{Path(out) / FEEDBACK}: no graded students here (run attnkit grade first)")
    report = build_report(course, results)
    groups = next(e for e in report.exercises if e.id == exercise_id).unexplained
    if not 1 <= number <= len(groups):
        raise KitError(f"{exercise_id}: no group {number} in {out} (it has {len(groups)}; report.html lists them)")
    group = groups[number - 1]
    by_key = {student_key(r.student): r for r in results}
    representative = by_key[student_key(group.students[0])]
    graded = representative.exercises[exercise_id]
    observed = [f"#   {c.name}: {_first_sentence(c.message)}" for c in graded.checks
                if not c.passed and c.name in group.checks]
    lines = [f"# Drafted by attnkit catalogue draft from group {number} of {exercise_id} in {out}:",
             f"# {group.size} student(s): {', '.join(group.students[:20])}" + (" ..." if group.size > 20 else ""),
             f"# Checks it fails: {', '.join(group.checks)}",
             f"# First wrong step: {group.step or 'not located'}",
             f"# What the kit observed of {group.students[0]}'s numbers:", *observed]
    code = _representative_code(submissions, group, exercise.module) if submissions else None
    if code is not None:
        lines += [f"# {group.students[0]}'s exercises/{exercise.module}.py:"]
        lines += [f"#     {line}" for line in code.splitlines()[:CODE_LINES]]
    elif group.located and isinstance(group.located.get("code"), str):
        lines += [f"# {group.students[0]}'s line where it first goes wrong: {group.located['code']}"]
    lines += ["# Then the switch in the mistake model: graders/mistakes/README.md, the last section.",
              f"[mistake.{exercise_id}-TODO-name-it]",
              f'exercise = "{exercise_id}"',
              'summary = "TODO: a few words an instructor reads in the report"',
              'explanation = """TODO: two or three sentences in the lesson\'s words: what these students probably',
              'did, and why it is wrong."""',
              'hint = "TODO: what to try, without giving the solution"',
              "variants = [",
              f'  # TODO: {{ module = "{exercise.module}", edits = [["<text of solutions/{exercise.module}.py>", '
              '"<what the group wrote instead>"]] },',
              "]"]
    return "\n".join(terminal_line(line, 400) for line in lines) + "\n"


def _first_sentence(message: str) -> str:
    head = message.split(". ")[0].strip()
    return head if head.endswith(".") else head + "."


def _representative_code(submissions: Path, group: UnexplainedGroup, module: str) -> str | None:
    """The representative's module, from a folder or a zip under `submissions` (None where not found)."""
    student = group.students[0]
    folder = Path(submissions) / student
    for candidate in (folder / "exercises" / f"{module}.py", folder / f"{module}.py"):
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8", errors="replace")
    archive = Path(submissions) / f"{student}.zip"
    if archive.is_file():
        try:
            with zipfile.ZipFile(archive) as opened:
                name = next((n for n in opened.namelist() if n.endswith(f"exercises/{module}.py")), None)
                return opened.read(name).decode("utf-8", errors="replace") if name else None
        except (zipfile.BadZipFile, OSError):
            return None
    return None
