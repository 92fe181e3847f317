"""Text a student controls, made safe for where a person reads it.

A student controls their id (a folder or zip name), their exception messages
and what their code prints, and every one of them can carry a terminal escape
(ESC sequences that recolour, retitle or rewrite the instructor's terminal),
a bidi override that makes two ids print alike, Markdown that turns feedback
into links, headings or HTML, or a spreadsheet formula. Each place text is
shown has one function here, and every writer of text for people calls it:

- `terminal` / `terminal_line`: capped, control and format characters as visible escapes (`\\x1b`, `\\u202e`);
- `markdown_text` / `markdown_code` / `markdown_block`: inert prose, a code span, a fenced block no text can close;
- `html_text`: escaped for HTML element content and attribute values;
- `csv_cell`: never starts a formula (a leading `'`, as spreadsheets expect);
- `file_stem`: a file name within the file system's limits for any id, deterministic and collision-free.
"""
from __future__ import annotations

import hashlib
import html
import re
import unicodedata

LINE_LIMIT = 300        # one-line text: an id, a message on the terminal
BLOCK_LIMIT = 4000      # a block: what the student's code printed
FILE_STEM_BYTES = 100   # well under the usual 255-byte name limit, with room for a suffix

_UNSAFE_CATEGORIES = {"Cc", "Cf", "Cs", "Zl", "Zp"}  # controls, format (bidi, zero-width), surrogates, separators
_ASCII_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_SAFE_STEM = re.compile(r"[^\W_][\w.-]*")
_NOT_IN_NAME = re.compile(r"[^\w.-]+")


def cap(text: str, limit: int) -> str:
    """At most `limit` characters, saying how many more there were."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… [{len(text) - limit} more characters cut]"


def visible(text: str, *, keep_newlines: bool = False) -> str:
    """Every control, format or separator character (and a lone surrogate) as a printable escape."""
    kept = "\n\t" if keep_newlines else ""
    if text.isascii():  # the usual case, and in ASCII only the C0 controls and DEL are unsafe: one regex pass
        return _ASCII_CONTROL.sub(lambda m: m.group() if m.group() in kept else _escape(m.group()), text)
    return "".join(ch if ch in kept or unicodedata.category(ch) not in _UNSAFE_CATEGORIES else _escape(ch)
                   for ch in text)


def _escape(ch: str) -> str:
    return ascii(ch)[1:-1]  # '\x1b', '\u202e', '\ud800', '\U000e0001'


def terminal_line(text: str, limit: int = LINE_LIMIT) -> str:
    """One line for a terminal: capped, nothing that a terminal would act on."""
    return visible(cap(text, limit))


def terminal(text: str, limit: int = BLOCK_LIMIT) -> str:
    """Several lines for a terminal: capped, newlines and tabs kept, nothing else a terminal acts on."""
    return visible(cap(text, limit), keep_newlines=True)


_MARKDOWN_ACTIVE = re.compile(r"[\\`*_\[\]<>#|~&@]|:(?=//)|(?<=[wW]{3})\.")
_BLOCK_START = re.compile(r"^(?:([-+=])|(\d+)([.)]))")


_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")


def markdown_text(text: str, limit: int = LINE_LIMIT) -> str:
    """Inert Markdown prose: no link, autolink, HTML, heading, list, table or emphasis can come of it.

    Newlines become spaces (the text stays one paragraph or list item). Outside code spans, Markdown's
    active characters are backslash-escaped (CommonMark allows it for any ASCII punctuation) and bare
    URLs are broken (`http\\://`, `www\\.`) so that GitHub-style autolinking finds none. Code spans
    are kept as they are: nothing inside one is a link or HTML, and the catalogue writes code in them.
    """
    flat = visible(cap(text, limit), keep_newlines=True).replace("\t", " ").replace("\n", " ").strip()
    parts, done = [], 0
    for span in _CODE_SPAN.finditer(flat):
        parts += [_MARKDOWN_ACTIVE.sub(_backslashed, flat[done:span.start()]), span.group()]
        done = span.end()
    parts.append(_MARKDOWN_ACTIVE.sub(_backslashed, flat[done:]))
    return _BLOCK_START.sub(_inert_block_start, "".join(parts), count=1)


def _backslashed(match: re.Match[str]) -> str:
    return "\\" + match.group()


def _inert_block_start(match: re.Match[str]) -> str:
    """A leading `-`, `+`, `=` or `1.` would start a list or underline a heading: escape it."""
    marker, number, dot = match.groups()
    return f"\\{marker}" if marker else f"{number}\\{dot}"


def markdown_code(text: str, limit: int = LINE_LIMIT) -> str:
    """An inline code span holding `text` on one line, whatever backticks it contains."""
    body = visible(cap(text, limit)).strip()
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if body.startswith("`") or body.endswith("`") else ""
    return f"{fence}{pad}{body}{pad}{fence}" if body else ""


def markdown_block(text: str, limit: int = BLOCK_LIMIT) -> str:
    """A fenced code block holding `text` verbatim (escaped controls aside), whatever fences it contains."""
    body = visible(cap(text, limit), keep_newlines=True).rstrip("\n")
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{body}\n{fence}"


def html_text(text: str, limit: int = LINE_LIMIT) -> str:
    """Text for an HTML page: capped, controls visible, `<>&"'` escaped."""
    return html.escape(visible(cap(text, limit)), quote=True)


def csv_cell(text: str, limit: int = LINE_LIMIT) -> str:
    """A CSV text cell a spreadsheet shows as text: never a formula, never a line break."""
    cell = visible(cap(text, limit))
    return "'" + cell if cell.lstrip().startswith(_FORMULA_STARTS) else cell


def file_stem(student: str) -> str:
    """A file name (without suffix) for any student id, the same every time.

    A plain id (letters, digits, `.`, `_`, `-`, starting with a letter or digit, short enough) is its
    own name. Any other id gets a readable slug and a digest of the whole id after a `+`, a character
    plain ids cannot hold, so two ids never share a file.
    """
    if _SAFE_STEM.fullmatch(student) and len(student.encode("utf-8")) <= FILE_STEM_BYTES:
        return student
    digest = hashlib.sha256(student.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    slug = _NOT_IN_NAME.sub("_", unicodedata.normalize("NFC", student)).strip("._-")
    slug = slug.encode("utf-8")[:40].decode("utf-8", "ignore") or "student"
    return f"{slug}+{digest}"
