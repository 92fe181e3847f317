"""Human-readable reports: a student's feedback page and the `check` command's lines."""
from __future__ import annotations

from attnkit.config import Course
from attnkit.grading.results import CheckResult, SubmissionResult

PASS, FAIL = "✓", "✗"


def check_line(exercise_id: str, check: CheckResult) -> str:
    """One line a check: mark, exercise, check name, and the mistake id of a failure."""
    mark = PASS if check.passed else FAIL
    line = f"{mark} {exercise_id}: {check.name}"
    return line if check.passed or not check.mistake else f"{line} [{check.mistake}]"


def feedback_markdown(result: SubmissionResult, course: Course) -> str:
    """The student's feedback page: scores, then each failed check's diagnosis and hint."""
    lines = [f"# Feedback for {result.student}", "",
             f"{course.name}, lesson: {course.lesson}", "",
             f"**Score: {result.score:g} / {result.max_score:g}**", ""]
    if result.problem:
        lines += [f"This submission could not be graded: {result.problem}", ""]
    for exercise in course.exercises:
        graded = result.exercises.get(exercise.id)
        if graded is None:
            continue
        lines += [f"## {exercise.title} ({graded.score:g} / {graded.max_score:g})", ""]
        if graded.mistakes:
            lines += ["Mistakes found: " + ", ".join(f"`{m}`" for m in graded.mistakes), ""]
        for check in graded.checks:
            kind = "public" if check.public else "hidden"
            lines.append(f"- {PASS if check.passed else FAIL} {check.name} ({kind}, {check.points:g}/{check.max_points:g})")
            if not check.passed and not result.problem:
                lines.append(f"  - {check.message}")
                if check.hint:
                    lines.append(f"  - Hint: {check.hint}")
        lines.append("")
    if result.output.strip():
        lines += ["## What your code printed", "", "```", result.output.strip()[:4000], "```", ""]
    return "\n".join(lines)
