"""The one console: how wide, whether in colour, and where warnings go, decided once from the environment."""
from __future__ import annotations

import io

import pytest

from attnkit.console import MIN_WIDTH, Console


def console(environ: dict[str, str]) -> tuple[Console, io.StringIO, io.StringIO]:
    out, err = io.StringIO(), io.StringIO()
    return Console.from_environment(environ, out=out, err=err), out, err


def test_a_pipe_gets_whole_lines():
    shown, out, _ = console({})
    shown.say("word " * 60)
    assert shown.width is None and out.getvalue().count("\n") == 1


def test_columns_wraps_lines_to_the_terminal_width_and_indents_the_rest():
    shown, out, _ = console({"COLUMNS": "50"})
    shown.say("word " * 60)
    lines = out.getvalue().splitlines()
    assert shown.width is not None and shown.width >= MIN_WIDTH
    assert len(lines) > 1 and all(line.startswith("    ") for line in lines[1:])


@pytest.mark.parametrize("environ,coloured", [
    ({}, False),                                     # a pipe: click leaves colour out
    ({"FORCE_COLOR": "1"}, True),                    # forced into a pipe
    ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),  # NO_COLOR wins
    ({"NO_COLOR": ""}, False),                       # empty means unset
])
def test_colour_follows_no_color_and_force_color(environ, coloured):
    shown, out, _ = console(environ)
    shown.say("✓ softmax: rows sum to one", "green")
    assert ("\x1b[" in out.getvalue()) is coloured


def test_a_warning_is_one_escaped_line_on_stderr_prefixed_once():
    shown, out, err = console({})
    shown.warn("a student's id \x1b[31mred\nsecond line")
    shown.warn("attnkit: warning: already prefixed")
    first, second = err.getvalue().splitlines()
    assert out.getvalue() == ""
    assert first.startswith("attnkit: a student's id") and "\x1b" not in first
    assert second == "attnkit: warning: already prefixed"


def test_an_error_is_one_line_saying_error():
    shown, _, err = console({})
    shown.error("course.toml: [settings] call_timeout must be a number")
    assert err.getvalue() == "attnkit: error: course.toml: [settings] call_timeout must be a number\n"


def test_no_progress_bar_when_stderr_is_not_a_terminal():
    shown, out, err = console({})
    shown.start_progress(3, "grading")
    shown.advance()
    shown.end_progress()
    assert out.getvalue() == err.getvalue() == ""


def test_a_command_passes_the_sandboxs_warnings_to_its_console_only_while_it_runs(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from attnkit.cli import main
    from attnkit.sandbox import parent

    before = parent.warning_sink
    monkeypatch.chdir(tmp_path)
    CliRunner().invoke(main, ["report", "."])
    assert parent.warning_sink is before
