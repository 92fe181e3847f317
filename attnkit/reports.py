"""Text for one student: the feedback page `grade` writes and the lines `check` prints.

Everything from a result (id, messages, what the code printed) is escaped for where it goes
(`attnkit.escaping`): a student's text never becomes a link, a heading or HTML in the page, nor a
terminal escape on the screen.
"""
from __future__ import annotations

from attnkit.config import Course
from attnkit.escaping import BLOCK_LIMIT, markdown_block, markdown_code, markdown_text, terminal_line
from attnkit.grading.results import CheckResult, Location, SubmissionResult

PASS, FAIL = "✓", "✗"
MESSAGE_LIMIT = 2000


def plural(count: int, noun: str) -> str:
    """`1 student`, `2 students`."""
    return f"{count} {noun}" + ("" if count == 1 else "s")


def check_line(exercise_id: str, check: CheckResult) -> str:
    """One line a check, safe for a terminal: mark, exercise, check name, and the mistake id of a failure."""
    mark = PASS if check.passed else FAIL
    line = f"{mark} {exercise_id}: {terminal_line(check.name)}"
    return line if check.passed or not check.mistake else f"{line} [{terminal_line(check.mistake)}]"


def feedback_markdown(result: SubmissionResult, course: Course) -> str:
    """The student's feedback page: scores, then each failed check's diagnosis and hint."""
    lines = [f"# Feedback for {markdown_text(result.student)}", "",
             f"{markdown_text(course.name)}, lesson: {markdown_text(course.lesson)}", "",
             f"**Score: {result.score:g} / {result.max_score:g}**", ""]
    if result.problem:
        lines += [f"This submission could not be graded: {markdown_text(result.problem, MESSAGE_LIMIT)}", ""]
    for exercise in course.exercises:
        graded = result.exercises.get(exercise.id)
        if graded is None:
            continue
        lines += [f"## {markdown_text(exercise.title)} ({graded.score:g} / {graded.max_score:g})", ""]
        if graded.mistakes:
            lines += ["Mistakes found: " + ", ".join(markdown_code(m) for m in graded.mistakes), ""]
        if graded.carried_from:
            lines += ["Checked with correct stand-ins for " + ", ".join(markdown_code(e) for e in graded.carried_from)
                      + ": their mistakes cost points there, not here.", ""]
        for check in graded.checks:
            kind = "public" if check.public else "hidden"
            lines.append(f"- {PASS if check.passed else FAIL} {markdown_text(check.name)} "
                         f"({kind}, {check.points:g}/{check.max_points:g})")
            if not check.passed and not result.problem:
                lines.append(f"  - {markdown_text(check.message, MESSAGE_LIMIT)}")
                if check.location is not None:
                    lines.append(f"  - Where it goes wrong: {markdown_location(check.location)}")
                if check.hint:
                    lines.append(f"  - Hint: {markdown_text(check.hint, MESSAGE_LIMIT)}")
        lines.append("")
    if result.output.strip():
        lines += ["## What your code printed", "", markdown_block(result.output.strip(), BLOCK_LIMIT), ""]
    return "\n".join(lines)


def markdown_location(location: Location) -> str:
    """The location with the student's line as code (the line is the student's text: escaped as code)."""
    words = markdown_text(location.steps_words)
    if location.file is None or location.line is None:
        return words[0].upper() + words[1:] + "."
    return f"{markdown_text(location.file)}, line {location.line}: {markdown_code(location.code or '')} ({words})."
