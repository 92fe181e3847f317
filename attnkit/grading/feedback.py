"""Feedback sentences: what the student probably did, why it is wrong, what to try."""
from __future__ import annotations

from attnkit.config import Course, Exercise
from attnkit.grading.catalogue import Catalogue
from attnkit.grading.diagnosis import Finding


def finding_message(finding: Finding, exercise: Exercise, course: Course, catalogue: Catalogue) -> tuple[str, str]:
    """(message, hint) for a finding, in the lesson's words, never showing a hidden input."""
    mistake = catalogue[finding.mistake]
    names = {"exercise": exercise.id, "module": f"{exercise.module}.py", "function": exercise.module}
    explanation = mistake.explanation.format_map(_Blank(names))
    hint = mistake.hint.format_map(_Blank(names))
    parts = []
    if finding.cause:
        cause = course.exercise(finding.cause)
        parts.append(f"{exercise.id} fails because your {cause.id} does ({finding.mistake}); fix {cause.module}.py first.")
    if finding.detail:
        parts.append(_sentence(finding.detail))
    parts.append(explanation)
    return " ".join(parts), hint


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[0].upper() + text[1:] if text else text
    return text if text.endswith((".", "!", "?")) else text + "."


class _Blank(dict):
    """format_map that leaves unknown {names} as they are."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"
