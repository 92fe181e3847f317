"""The self-check from a notebook cell: `from attnkit import check, hint`, then `check("softmax")`.

The habit notebook users bring from otter (`grader.check("q1")`) and Kaggle's learntools
(`q1.check()`, `q1.hint()`). Each call runs `attnkit check --json` in a process of its own, with the
kernel's Python, in the notebook's folder (the handout folder): the student's modules are read as they
are on disk now, not as the kernel imported them before an edit, and a crash or an endless loop in
them ends that process, never the kernel. The sandbox already stops each call into student code after
the course's `call_timeout`; `timeout` bounds the whole run on top of it.

What it returns shows itself: a small HTML table in Jupyter (`_repr_html_`) and the terminal's lines
elsewhere. Every text the student's code controls is escaped as on the terminal (`attnkit.escaping`).
"""
from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from attnkit.escaping import html_text, terminal, terminal_line

TIMEOUT = 180.0  # seconds for one whole self-check: the course's time budget (60 s) and room to start
OUTPUT_SHOWN = 2000  # characters of the student's own printed output shown below the table


@dataclass(frozen=True)
class Row:
    """One public check's verdict, as `attnkit check --json` gives it."""

    exercise: str
    name: str
    passed: bool
    mistake: str
    message: str
    hint: str
    where: str = ""  # where it goes wrong in the student's code (Location.describe), where the kit placed it


@dataclass(frozen=True)
class Report:
    """What one self-check found, or why it could not run (`problem`); shown as a table or as text.

    `hints_only` is `hint()`'s view of the same run: the hints of failed checks, nothing else.
    """

    rows: tuple[Row, ...] = ()
    output: str = ""
    problem: str = ""
    hints_only: bool = False
    notes: tuple[str, ...] = ()

    @property
    def failed(self) -> int:
        return sum(not row.passed for row in self.rows)

    @property
    def summary(self) -> str:
        if self.problem:
            return f"attnkit: {self.problem}"
        if not self.rows:
            return "No public checks for these exercises; hidden checks run at grading."
        if self.hints_only and not self.failed:
            return "No hints: every public check passed."
        if self.failed:
            return f"{self.failed} of {len(self.rows)} public checks failed."
        return f"All {len(self.rows)} public checks passed; hidden checks run at grading."

    def _shown(self) -> list[Row]:
        return [row for row in self.rows if not row.passed] if self.hints_only else list(self.rows)

    def __str__(self) -> str:
        lines = []
        for row in self._shown():
            mark = "✓" if row.passed else "✗"
            found = "" if row.passed else f" [{terminal_line(row.mistake)}]" if row.mistake else ""
            if not self.hints_only:
                lines.append(f"{mark} {terminal_line(row.exercise)}: {terminal_line(row.name)}{found}")
                if not row.passed:
                    lines.append(f"    {terminal_line(row.message, 2000)}")
                if not row.passed and row.where:
                    lines.append(f"    where: {terminal_line(row.where, 2000)}")
            if not row.passed and row.hint:
                prefix = f"{terminal_line(row.exercise)}: {terminal_line(row.name)}\n" if self.hints_only else ""
                lines.append(f"{prefix}    hint: {terminal_line(row.hint, 2000)}")
        if self.output.strip() and not self.hints_only:
            lines += ["", "Your code printed this:", terminal(self.output.strip(), OUTPUT_SHOWN)]
        return "\n".join([*lines, self.summary, *self.notes])

    __repr__ = __str__

    def _repr_html_(self) -> str:
        """A table a check (or a hint a failed check), the student's output, the summary; all text escaped."""
        def cell(text: str, limit: int = 2000) -> str:
            return f"<td style='text-align:left'>{html_text(text, limit)}</td>"

        heading = ("<tr><th>exercise</th><th>check</th><th>hint</th></tr>" if self.hints_only else
                   "<tr><th></th><th>exercise</th><th>check</th><th>what the kit found</th></tr>")
        body = []
        for row in self._shown():
            if self.hints_only:
                body.append(f"<tr>{cell(row.exercise)}{cell(row.name)}{cell(row.hint or '(no hint)')}</tr>")
            else:
                mark = ("<td style='color:green'>✓</td>" if row.passed else "<td style='color:red'>✗</td>")
                found = "" if row.passed else f"[{row.mistake}] {row.message}" if row.mistake else row.message
                found += f" Where it goes wrong: {row.where}" if row.where and not row.passed else ""
                body.append(f"<tr>{mark}{cell(row.exercise)}{cell(row.name)}{cell(found)}</tr>")
        table = f"<table>{heading}{''.join(body)}</table>" if body else ""
        printed = (f"<p>Your code printed this:</p><pre>{html_text(self.output.strip(), OUTPUT_SHOWN)}</pre>"
                   if self.output.strip() and not self.hints_only else "")
        notes = "".join(f"<p>{html_text(note, 2000)}</p>" for note in self.notes)
        return f"<div>{table}{printed}<p>{html_text(self.summary, 2000)}</p>{notes}</div>"


def check(*exercise_ids: str, folder: str | Path | None = None, timeout: float = TIMEOUT) -> Report:
    """Run the public checks of these exercises (all, when none is named) on `folder/exercises`, as
    `attnkit check` does; `folder` is the notebook's own by default."""
    return _run(exercise_ids, Path(folder) if folder is not None else Path.cwd(), timeout)


def hint(*exercise_ids: str, folder: str | Path | None = None, timeout: float = TIMEOUT) -> Report:
    """The hints of the failed public checks of these exercises (all, when none is named), run afresh."""
    report = _run(exercise_ids, Path(folder) if folder is not None else Path.cwd(), timeout)
    return dataclasses.replace(report, hints_only=True)


def _run(exercise_ids: tuple[str, ...], folder: Path, timeout: float) -> Report:
    """`python -m attnkit check --json` in `folder`, in a session of its own so that a timeout ends all of it."""
    command = [sys.executable, "-m", "attnkit", "check", "--json", "--", *exercise_ids]
    process = subprocess.Popen(command, cwd=folder, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace",
                               start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _end(process)
        return Report(problem=f"the check took longer than {timeout:g} s and was stopped: is there an endless "
                              "loop in your code (a `while` whose condition never changes)? Your kernel is fine.")
    if process.returncode not in (0, 1):
        last = [line for line in stderr.splitlines() if line.strip()]
        problem = last[-1].removeprefix("attnkit: error: ") if last else f"the check ended with status " \
                                                                         f"{process.returncode}"
        return Report(problem=problem)
    return _parsed(stdout)


def _end(process: subprocess.Popen[str]) -> None:
    """Kill the check's whole session (the CLI and its sandboxes) and reap it."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.communicate()


def _parsed(stdout: str) -> Report:
    """The rows of `check --json`'s record, or a problem saying it was not one."""
    from attnkit.errors import KitError
    from attnkit.self_check import SelfCheck

    try:
        run = SelfCheck.from_json(json.loads(stdout))
    except (ValueError, KitError) as error:
        return Report(problem=f"attnkit check --json printed no valid record: {error}")
    rows = tuple(Row(exercise_id, c.name, c.passed, c.mistake or "", c.message, c.hint,
                     c.location.describe() if c.location is not None else "")
                 for exercise_id, exercise in run.result.exercises.items() for c in exercise.checks)
    return Report(rows, run.result.output, notes=run.notes)
