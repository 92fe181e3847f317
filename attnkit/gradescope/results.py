"""Gradescope's results.json, written from the kit's typed result.

One Gradescope test a check, in the course's order (`number` "exercise.check"), with its points, its
status, and as output the mistakes found, the diagnosis and the hint (or, for a check spared by
error carried forward, the sentence saying so); its `extra_data` keeps the mistake ids and
`carried_from` for the instructor's exports. Public checks are `visible`; hidden checks take
course.toml's `[grading] hidden_visibility` (`after_published` unless the course says otherwise),
and the text shown to students at once, the top-level `output`, says nothing of them: not their
findings, and not the total score while they are hidden (Gradescope hides the total too, then).
The student's own printed output is left out: it may hold the hidden checks' inputs; so are the details
of a malformed reply (what the student's process wrote, perhaps during a hidden check).

Every text is Gradescope's `text` format, which Gradescope shows as it is (no HTML, no Markdown),
so nothing is escaped for markup; control and bidi characters are made visible, as everywhere.
"""
from __future__ import annotations

from typing import Any

from attnkit.config import Course
from attnkit.escaping import cap, visible
from attnkit.grading.results import CheckResult, SubmissionResult

SHOWN = {"after_due_date": "after the due date", "after_published": "when your instructor publishes the grades",
         "hidden": "only to your instructor"}
TEXT_LIMIT = 4000  # characters of one output


def results_json(result: SubmissionResult, course: Course) -> dict[str, Any]:
    """The results.json record for one graded (or ungradable) upload."""
    hidden = course.grading.hidden_visibility
    tests = []
    for number, exercise in enumerate(course.exercises, 1):
        graded = result.exercises.get(exercise.id)
        for index, check in enumerate(graded.checks if graded else [], 1):
            tests.append({"name": _text(f"{exercise.id}: {check.name}"), "number": f"{number}.{index}",
                          "score": check.points, "max_score": check.max_points,
                          "status": "passed" if check.passed else "failed",
                          "output": "" if result.problem else check_output(check),
                          "tags": [exercise.id, "public" if check.public else "hidden"],
                          "visibility": "visible" if check.public else hidden,
                          "extra_data": {"mistakes": check.mistakes, "carried_from": check.carried_from}})
    return {"score": result.score, "output": summary(result, hidden), "output_format": "text",
            "test_output_format": "text", "test_name_format": "text", "tests": tests}


def check_output(check: CheckResult) -> str:
    """The mistakes a check found, what was seen and why it is wrong, and the hint."""
    parts = []
    if check.mistakes:
        parts.append(f"{'Mistake' if len(check.mistakes) == 1 else 'Mistakes'}: {', '.join(check.mistakes)}")
    if check.message:
        parts.append(check.message)
    if check.location is not None and not check.passed:
        parts.append(f"Where it goes wrong: {check.location.describe()}")
    if check.hint and not check.passed:
        parts.append(f"Hint: {check.hint}")
    return _text("\n\n".join(parts))


def summary(result: SubmissionResult, hidden: str) -> str:
    """What every student sees at once: the reason an upload could not be graded, or the public checks' tally."""
    if result.problem:
        return _text(f"This submission could not be graded, so it scores 0: {_shown_problem(result)}")
    checks = [c for e in result.exercises.values() for c in e.checks]
    public = [c for c in checks if c.public]
    lines = [f"Public checks: {sum(c.passed for c in public)} of {len(public)} passed."]
    if hidden == "visible":
        lines.append(f"Score: {result.score:g} / {result.max_score:g}, hidden checks included.")
    elif len(public) < len(checks):
        lines.append(f"The {len(checks) - len(public)} hidden checks are shown {SHOWN[hidden]}.")
    return _text("\n".join(lines))


def _shown_problem(result: SubmissionResult) -> str:
    """The problem, as every student sees it at once: a malformed reply's details quote what the student's
    process wrote, perhaps during a hidden check (its inputs), so they are left to the instructor's records."""
    malformed = any("malformed-reply" in c.mistakes for e in result.exercises.values() for c in e.checks)
    if malformed:
        return "the process running your code sent a malformed reply (your instructor sees what it sent)"
    return result.problem


def failed_run(reason: str) -> dict[str, Any]:
    """results.json when the kit itself failed: score 0, and that it was not the student's doing."""
    return {"score": 0.0, "output": _text(f"The autograder failed, not your code: {reason}. Your instructor sees "
                                          "the details in the autograder's output and can regrade."),
            "output_format": "text", "tests": []}


def _text(text: str) -> str:
    return visible(cap(text, TEXT_LIMIT), keep_newlines=True)
