"""One console for everything the command line prints: results on stdout, warnings and errors on stderr.

Decided once per run, here and nowhere else:
- width: lines are wrapped to the terminal's width (or $COLUMNS); output to a file or a pipe gets whole
  lines, so a script reading it never sees a line broken in two;
- colour (https://no-color.org and the FORCE_COLOR convention): NO_COLOR set and not empty turns it off,
  FORCE_COLOR set and not empty turns it on even into a pipe, otherwise click colours a terminal only;
- warnings and errors: one escaped line each on stderr, prefixed `attnkit:`, whatever part of the kit
  raised them (the sandbox's warnings are passed here, not printed where they arise);
- progress: a bar on stderr when stderr is a terminal, nothing otherwise.
Click's own helpers (echo, style, progressbar) do the printing; Rich would add a dependency to every
student's install for nothing click lacks here.
"""
from __future__ import annotations

import os
import shutil
import sys
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import IO, Any, TextIO, cast

import click

from attnkit.escaping import terminal_line

MIN_WIDTH = 40
LINE_LIMIT = 1000  # characters of one warning or error line


@dataclass
class Console:
    """Where and how this run prints: one per command, made by `from_environment`."""

    width: int | None = None          # None: whole lines (a file or a pipe)
    colour: bool | None = None        # None: click decides by whether the stream is a terminal
    out: IO[str] = field(default_factory=lambda: sys.stdout)
    err: IO[str] = field(default_factory=lambda: sys.stderr)
    _bar: Any = None

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ,
                         out: IO[str] | None = None, err: IO[str] | None = None) -> Console:
        """The console this process's environment and streams call for."""
        out = out or sys.stdout
        width = None
        if environ.get("COLUMNS") or _is_terminal(out):
            width = max(shutil.get_terminal_size().columns, MIN_WIDTH)
        colour = False if environ.get("NO_COLOR") else True if environ.get("FORCE_COLOR") else None
        return cls(width=width, colour=colour, out=out, err=err or sys.stderr)

    @classmethod
    def current(cls) -> Console:
        """The running command's console (the `attnkit` group makes it), or a new one outside a command."""
        context = click.get_current_context(silent=True)
        found = context.find_object(Console) if context else None
        return found or cls.from_environment()

    def line(self, text: str = "") -> None:
        """One line (or several) on stdout, as given."""
        click.echo(text, file=self.out, color=self.colour)

    def say(self, text: str, fg: str | None = None, *, indent: str = "    ") -> None:
        """Text wrapped to the width, continuation lines indented; `fg` colours its first character (a ✓ or ✗)."""
        lines = (textwrap.wrap(text, self.width, subsequent_indent=indent, break_on_hyphens=False)
                 if self.width else [text]) or [""]
        first = click.style(lines[0][0], fg=fg) + lines[0][1:] if fg and lines[0] else lines[0]
        click.echo("\n".join([first, *lines[1:]]), file=self.out, color=self.colour)

    def note(self, text: str) -> None:
        """A line for the user on stderr that is neither a warning nor an error (already worded in full)."""
        click.echo(text, file=self.err, color=self.colour)

    def warn(self, message: str) -> None:
        """One escaped warning line on stderr; a message that already starts `attnkit:` keeps its prefix."""
        text = message if message.startswith("attnkit:") else f"attnkit: {message}"
        click.echo(terminal_line(text, LINE_LIMIT), file=self.err, color=self.colour)

    def error(self, message: str) -> None:
        """The one line a failed command ends with."""
        click.echo(f"attnkit: error: {terminal_line(message, LINE_LIMIT)}", file=self.err, color=self.colour)

    def start_progress(self, count: int, label: str) -> None:
        """A bar of `count` steps on stderr, where stderr is a terminal."""
        if count and _is_terminal(self.err):
            self._bar = click.progressbar(length=count, label=label, file=cast(TextIO, self.err))
            self._bar.render_progress()

    def advance(self) -> None:
        if self._bar is not None:
            self._bar.update(1)

    def end_progress(self) -> None:
        if self._bar is not None:
            self._bar.render_finish()
            self._bar = None


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or stand-in stream
        return False
