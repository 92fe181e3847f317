"""Feedback sentences: what the student probably did, why it is wrong, what to try.

The words come from the catalogue (in the lesson's terms); the details say what was observed on
the check's input without ever showing a hidden input or the solution.
"""
from __future__ import annotations

import re
from dataclasses import replace

import numpy as np

from attnkit.config import Course, Exercise
from attnkit.grading.catalogue import Catalogue
from attnkit.grading.locating import Located
from attnkit.grading.memory import Carried, CheckRecord
from attnkit.grading.results import Location


def check_feedback(record: CheckRecord, exercise: Exercise, course: Course, catalogue: Catalogue) -> tuple[str, str]:
    """(message, hint) for one check: each finding's detail and explanations, and what was carried."""
    parts: list[str] = []
    hints: list[str] = []
    named: set[str] = set()
    for finding in record.findings:
        if finding.detail and _sentence(finding.detail) not in parts:  # two requests of a check failing alike
            parts.append(_sentence(finding.detail))
        if len(finding.explanations) > 1 and finding.mistakes == (finding.fallback,) and not finding.proven_only:
            options = " or ".join(" with ".join(e) for e in finding.explanations)
            parts.append(f"The numbers fit more than one known mistake on this input ({options}); "
                         "the other checks could not tell which.")
        for mistake_id in finding.mistakes:
            if mistake_id in named:
                continue
            named.add(mistake_id)
            explanation, hint = _words(catalogue, mistake_id, exercise)
            parts.append(explanation)
            if hint not in hints:
                hints.append(hint)
    carried_sentences = (_carried_sentence(carried, exercise, course) for carried in record.carried)
    parts += dict.fromkeys(carried_sentences)  # a check asking twice is spared twice: said once
    return " ".join(parts), " ".join(hints)


def _carried_sentence(carried: Carried, exercise: Exercise, course: Course) -> str:
    owner = course.exercise(carried.exercise)
    what = f" ({', '.join(carried.mistakes)})" if carried.mistakes else ""
    how = f": {carried.detail}" if carried.detail else ""
    return (f"Your {exercise.id} is right on its own: checked with a correct stand-in for your {owner.id}, which "
            f"has a mistake{what}{how}. It keeps its points; fix {owner.module}.py to make both right.")


def _words(catalogue: Catalogue, mistake_id: str, exercise: Exercise) -> tuple[str, str]:
    mistake = catalogue[mistake_id]
    names = _Blank({"exercise": exercise.id, "module": f"{exercise.module}.py", "function": exercise.module})
    return mistake.explanation.format_map(names), mistake.hint.format_map(names)


def _sentence(text: str) -> str:
    """A detail as a sentence: a capital first (unless it starts with a name the student wrote, such as
    `softmax.py, line 7`, which stays as the file is spelt) and a full stop last."""
    text = text.strip()
    first = re.split(r"[\s,:;]", text, maxsplit=1)[0]
    if text and not re.search(r"[._/()`\[\]]", first):
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


class _Blank(dict):
    """format_map that leaves unknown {names} as they are."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


MAX_SHOWN_NUMBERS = 12  # the lesson's numbers at a step are shown where they are this few (a row of the example)


def location_feedback(located: Located | None, mode: str, public: bool) -> tuple[Location | None, str]:
    """The check's `location` as the course shows it (`[feedback] locate`), and the words that go with it
    in its message (each route shows the location itself, `Location.describe`).

    The lesson's numbers at the wrong step are shown beside the student's on public checks only (whose
    inputs are the lesson's, printed in the lesson itself), never a hidden check's.
    """
    if located is None or mode == "off":
        return None, ""
    found = located.location
    sentence = ""
    if mode == "step":
        location = replace(found, file=None, line=None, code=None)
    else:
        location = found
        if located.raised:
            sentence += f" It raised later, on {located.raised}, because of it."
    if located.shapes:
        sentence += f" On the line that raised, {located.shapes}."
    if located.assumed:
        sentence += f" {located.assumed}"
    if mode == "line" and len(located.either) == 2 and found.line is None:
        lines = " or ".join(f"{file}, line {line}" for file, line in located.either)
        sentence += f" The kit could not tell which line: the {found.step} step goes wrong on {lines}."
    elif mode == "line" and len(located.either) == 2:
        (_, stops), (file, goes_on) = located.either
        sentence += f" Line {stops} stops at the {found.last_right} step and {file}, line {goes_on} goes on " \
                    f"without the {found.step} step: it belongs on one of them."
    if mode == "line":
        placed = [f"{mistake} on {file}, line {line}: `{code}`" for mistake, file, line, code in located.mistakes
                  if len(located.mistakes) > 1 or (file, line) != (found.file, found.line)]
        if placed:
            sentence += f" {'; '.join(placed)}."
    if public and located.yours is not None and located.expected is not None \
            and 1 < located.yours.size <= MAX_SHOWN_NUMBERS and located.expected.size <= MAX_SHOWN_NUMBERS:
        sentence += f" Your {found.step} on this check's numbers: {_numbers(located.yours)}; they should be " \
                    f"{_numbers(located.expected)}."
    return location, sentence.strip()


def _numbers(values: np.ndarray) -> str:
    rows = np.atleast_2d(values.reshape(-1, values.shape[-1]) if values.ndim else values)
    return "; ".join(", ".join(f"{v:.2f}" for v in row) for row in rows)
