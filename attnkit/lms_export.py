"""Gradebooks for a learning management system: the CSV file Canvas or Moodle imports, from a graded folder.

The kit knows students by the id their submission was named by; the LMS by its own columns. A roster
(the CSV the LMS exports of its gradebook) joins the two: a kit id matches the first roster row where it
equals, ignoring case (`submissions.student_key`), one of that system's identifying columns, in the order
listed in `IDENTIFIERS` (an email address also matches by the part before its `@`). Every roster row gets
a row of the file; a row with no submission gets an empty score, so the import leaves that student's
grade as it is. Kit ids that match no row, and rows with no submission, are returned for the command
to list: nothing is dropped silently.

Formats followed (docs/lms.md):
- Canvas, the Gradebook import CSV of the Canvas Instructor Guide ("How do I import grades in the
  Gradebook?", as of 2024): the columns `Student, ID, SIS User ID, SIS Login ID, Section` in that order,
  then one column an assignment; a second row `Points Possible` giving the assignment's points; a new
  column name makes a new assignment.
- Moodle, the CSV grade import of MoodleDocs 4.5 ("Grade import"): a header row, one row a student, one
  column the identifier matched in "Identify user by" (`Email address` to useremail, or `ID number`
  to useridnumber) and one column the grade item mapped in "Grade item mappings".
"""
from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from attnkit.errors import KitError
from attnkit.escaping import csv_cell
from attnkit.grading.results import SubmissionResult
from attnkit.submissions import student_key

CANVAS, MOODLE = "canvas", "moodle"
SYSTEMS = (CANVAS, MOODLE)
CANVAS_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
MOODLE_COLUMNS = ("First name", "Last name", "ID number", "Email address")
IDENTIFIERS = {CANVAS: ("SIS Login ID", "SIS User ID", "ID", "Student"),
               MOODLE: ("Username", "ID number", "Email address")}
MOODLE_KEYS = ("Email address", "ID number")  # what Moodle's import can match on, the first the roster fills


@dataclass
class Export:
    """The file's text and what did not match."""

    text: str
    unmatched: list[str] = field(default_factory=list)       # kit ids that match no roster row
    missing: list[str] = field(default_factory=list)         # roster rows (named) with no submission
    identifier: str = ""                                     # Moodle: the column to match on when importing


def read_roster(path: Path, system: str) -> list[dict[str, str]]:
    """The roster's rows, or KitError naming the file and what it lacks."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise KitError(f"{path}: cannot read the roster: {getattr(error, 'strerror', None) or error}") from None
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip() for h in reader.fieldnames or []]
    if not any(column in header for column in IDENTIFIERS[system]):
        raise KitError(f"{path}: a {system} roster needs one of the columns {', '.join(IDENTIFIERS[system])}")
    rows = []
    for row in reader:
        cleaned = {(k or "").strip(): (v or "").strip() for k, v in row.items() if isinstance(v, str)}
        if cleaned.get("Student") == "Points Possible":
            continue  # Canvas's export: the row under the header holds each column's points
        if any(cleaned.values()):
            rows.append(cleaned)
    return rows


def export_gradebook(system: str, roster: list[dict[str, str]], results: Iterable[SubmissionResult],
                     assignment: str, points: float) -> Export:
    """The import file for `system` with one assignment column `assignment`, scores out of `points`."""
    if system not in SYSTEMS:
        raise KitError(f"--to: expected one of {', '.join(SYSTEMS)}, not {system!r}")
    by_key = {student_key(r.student): r for r in results}
    matched: dict[int, SubmissionResult] = {}
    unmatched = []
    for key, result in sorted(by_key.items()):
        found = _match(key, roster, IDENTIFIERS[system])
        if found is None or found in matched:
            unmatched.append(result.student)
        else:
            matched[found] = result
    missing = [_name(r) for i, r in enumerate(roster) if i not in matched]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    identifier = ""
    if system == CANVAS:
        writer.writerow([*CANVAS_COLUMNS, assignment])
        writer.writerow(["Points Possible", "", "", "", "", f"{points:g}"])
        for index, row in enumerate(roster):
            writer.writerow([csv_cell(row.get(c, "")) for c in CANVAS_COLUMNS] + [_score(matched.get(index))])
    else:
        identifier = next((k for k in MOODLE_KEYS if any(r.get(k) for r in roster)), "Username")
        columns = [c for c in MOODLE_COLUMNS if c != identifier] + [identifier]
        writer.writerow([*columns, assignment])
        for index, row in enumerate(roster):
            writer.writerow([csv_cell(row.get(c, "")) for c in columns] + [_score(matched.get(index))])
    return Export(buffer.getvalue(), unmatched, missing, identifier)


def _match(key: str, roster: list[dict[str, str]], columns: tuple[str, ...]) -> int | None:
    for column in columns:
        for index, row in enumerate(roster):
            value = row.get(column, "")
            if value and (student_key(value) == key or (column == "Email address" and "@" in value
                                                         and student_key(value.split("@")[0]) == key)):
                return index
    return None


def _name(row: dict[str, str]) -> str:
    return row.get("Student") or " ".join(p for p in (row.get("First name"), row.get("Last name")) if p) or \
        next((v for v in row.values() if v), "?")


def _score(result: SubmissionResult | None) -> str:
    return "" if result is None else f"{result.score:g}"
