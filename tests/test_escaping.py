"""Student-controlled text is inert wherever a person reads it: terminal, Markdown, HTML, CSV, file names."""
from __future__ import annotations

import re
import unicodedata

import mistune
import pytest

from attnkit.escaping import (
    csv_cell,
    file_stem,
    html_text,
    markdown_block,
    markdown_code,
    markdown_text,
    terminal,
    terminal_line,
    visible,
)

# GitHub-flavoured rendering, raw HTML allowed through: what a careless viewer of the feedback would do.
render = mistune.create_markdown(escape=False, plugins=["url", "strikethrough", "table"])

HOSTILE = ("\x1b[2J\x1b]0;owned\x07\x9b31m ESC and C1; \u202eevil\u202c bidi; \u2066x\u2069; \u200bzero-width; "
           "\ud800 lone surrogate; <script>alert(1)</script> <img src=x onerror=alert(1)> &amp; "
           "[a link](http://evil.example) ![img](http://evil.example/x.png) <http://evil.example> "
           "http://evil.example/bare www.evil.example mail@evil.example *em* __strong__ ~~gone~~ `code` | a | b |")
HEADINGS_AND_LISTS = ["# heading", "- item", "+ item", "1. item", "> quote", "=====", "    indented"]

UNSAFE_FOR_A_TERMINAL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def test_a_terminal_line_has_no_control_format_or_surrogate_character():
    line = terminal_line(HOSTILE + "\nsecond line\r")
    assert not UNSAFE_FOR_A_TERMINAL.search(line) and "\n" not in line
    assert "\\x1b" in line and "\\u202e" in line and "\\ud800" in line  # shown, not acted on
    line.encode("utf-8")  # printable on any UTF-8 terminal


def test_terminal_text_keeps_its_lines_and_is_capped():
    text = terminal("first\nsecond\x1b[0m\n" + "x" * 10_000, limit=100)
    assert text.startswith("first\nsecond\\x1b[0m\n") and len(text) < 200 and "more characters cut" in text


def test_markdown_text_renders_to_one_inert_paragraph():
    page = render(markdown_text(HOSTILE, limit=10_000))
    assert not re.search(r"<(a|img|script|em|strong|del|table|h\d)\b", page), page  # a code span is inert
    assert page.startswith("<p>") and page.count("<p>") == 1
    assert "&lt;script&gt;" in page and "evil.example" in page


@pytest.mark.parametrize("start", HEADINGS_AND_LISTS)
def test_markdown_text_in_a_list_item_never_starts_a_block(start):
    page = render(f"- {markdown_text(start + ' text')}\n")
    assert not re.search(r"<(h\d|ul|ol|blockquote|pre|hr)\b", page.split("<li>", 1)[1]), page


def test_code_spans_in_markdown_text_stay_code_and_stay_inert():
    text = "Replace the `raise NotImplementedError` with `d_k ** 0.5`; `<b>[x](http://e)</b>` and a ` lone"
    page = render(markdown_text(text))
    assert page.count("<code>") == 3 and "<code>d_k ** 0.5</code>" in page
    assert "<code>&lt;b&gt;[x](http://e)&lt;/b&gt;</code>" in page and not re.search(r"<(a|b)\b", page)


def test_a_fenced_block_holds_any_text_whatever_fences_it_contains():
    text = "before\n```\n# not a heading\n````\n<script>x</script>\n~~~\nafter"
    page = render(markdown_block(text) + "\n\n# real heading\n")
    assert page.count("<pre>") == 1 and "<script>" not in page
    assert "# not a heading" in page and "<h1>real heading</h1>" in page


def test_a_code_span_holds_backticks():
    page = render(markdown_code("a `b` c``d"))
    assert page.count("<code>") == 1 and "a `b` c``d" in page


def test_html_text_is_escaped():
    assert html_text('<b onclick="x">&') == "&lt;b onclick=&quot;x&quot;&gt;&amp;"
    assert "\x1b" not in html_text("\x1b[31m")


@pytest.mark.parametrize("value", ["=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1", " =1"])
def test_a_csv_cell_never_starts_a_formula(value):
    cell = csv_cell(value)
    assert cell.startswith("'") or cell.startswith("\\"), cell
    assert "\t" not in cell and "\r" not in cell


def test_a_plain_csv_cell_is_unchanged():
    assert csv_cell("alice.smith-2") == "alice.smith-2"


@pytest.mark.parametrize("student", ["alice", "zoë", "j.smith", "a_b-c"])
def test_a_plain_id_is_its_own_file_name(student):
    assert file_stem(student) == student


@pytest.mark.parametrize("student", ["../../etc/passwd", "a/b", "..", ".", "", "nul\x00id", "x" * 1000,
                                     "é" * 300, "caf\\xe9", "\ud800", "con", "-rf", ".hidden", "a\nb"])
def test_any_id_gets_a_file_name_the_file_system_takes(tmp_path, student):
    stem = file_stem(student)
    assert stem == file_stem(student)  # deterministic
    name = f"{stem}.json"
    assert "/" not in name and "\x00" not in name and len(name.encode()) <= 255 and not name.startswith(".")
    (tmp_path / name).write_text("{}")
    assert [p.name for p in tmp_path.iterdir()] == [name]


def test_different_ids_never_share_a_file_name():
    ids = ["a/b", "a_b", "a:b", "a b", "x" * 300, "x" * 301, "caf\\xe9", "caf_xe9", "café"]
    stems = [file_stem(i) for i in ids]
    assert len(set(stems)) == len(ids)


@pytest.mark.parametrize("keep_newlines", [False, True])
def test_every_ascii_character_is_escaped_exactly_when_its_category_is_unsafe(keep_newlines):
    kept = "\n\t" if keep_newlines else ""
    for code in range(128):
        ch = chr(code)
        unsafe = unicodedata.category(ch) in {"Cc", "Cf", "Cs", "Zl", "Zp"} and ch not in kept
        assert visible(f"a{ch}b", keep_newlines=keep_newlines) == "a" + (ascii(ch)[1:-1] if unsafe else ch) + "b"
