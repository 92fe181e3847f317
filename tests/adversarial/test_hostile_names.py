"""Hostile names and text, graded in one class through the real `attnkit grade` (docs/contract.md, end of section 4).

The class's submissions folder holds what an instructor really receives from a hostile or unlucky class:
- ids that start a spreadsheet formula (`=HYPERLINK(...)`, `+1`, `-1`, `@SUM(1)`);
- ids as long as the file system allows a name (255 bytes, ASCII and CJK, a folder and a zip), so that
  `<id>.json` and its temporary file would be too long;
- an id that is not UTF-8 (bytes in a folder name);
- ids holding HTML, terminal escapes and a bidi override;
- pairs that make one id: a folder `café` (NFD) and `café.zip` (NFC); `alice.zip` and `ALICE.ZIP`;
  `dave.zip` and a browser's `dave (1).zip`; `bob.zip` and a folder `bob/`. In each pair the newer one
  holds a softmax over the wrong dim, the older one the reference;
- a dangling and a looping symbolic link, each once as a "zip" and once as a "folder";
- submissions whose printed output, exception messages and exception type names hold Markdown (a
  `javascript:` link, headings, a fence that closes the kit's), HTML (`<script>`, `<img onerror>`)
  and terminal escapes (clear screen, OSC 8 hyperlinks, `\\r` overwrites, bidi overrides); one whose
  exception type name is 40 MB; one whose exception message holds a lone surrogate. These are genuine
  exceptions, not forged frames: the worker caps and cleans what it sends, so each is a `crash`.

Expected: the run exits 0; one row an id, normalised to NFC, and for a pair the most recently
modified is graded with a warning naming the other; no CSV cell starts a formula; every id is graded
under a file name within the file system's limits; odd names (not UTF-8, a link that leads nowhere)
are refused for that student only, with a warning naming them; nothing a student controls reaches
the instructor's terminal, a feedback page or an HTML page the kit writes unescaped (checked on
`attnkit grade`'s raw output bytes, and on the feedback Markdown as a permissive renderer turns it
into HTML); no file the kit writes is over 1 MB or unreadable.
"""
from __future__ import annotations

import csv
import io
import os
import re
import time
import unicodedata
import zipfile
from dataclasses import dataclass
from pathlib import Path

import mistune
import pytest

from classroom import (
    HERE,
    NEEDS_SANDBOX,
    NO_DELAYED_ATTACK,
    TIGHT_SETTINGS,
    attacked_exercises,
    feedback_by_student,
    grade,
    honest_submission,
    overlays,
    oversized_files,
    unreadable_files,
)
from kit import SUBMISSIONS, course_copy, overlay_submission, reference_submission

pytestmark = NEEDS_SANDBOX

TEXT_DIR = HERE / "text"
TEXT_ATTACKS = overlays(TEXT_DIR)
WRONG_DIM = SUBMISSIONS / "mistakes" / "softmax-wrong-dim--sum-0"
FORMULA_IDS = ['=HYPERLINK("http:evil.example","marks")', "+1", "-1", "@SUM(1)"]
LONG_FOLDER_IDS = ["L" * 255, "語" * 85]  # 255 bytes each: the longest name a folder can have
LONG_ZIP_ID = "z" * 251  # with ".zip", 255 bytes
MARKUP_ID = "<img src=\"x\" onerror=\"alert('ADV')\">"
BIDI_ID = "\u202eADV-gpj.exe"
NOT_UTF8_NAME = b"bad-\xff\xfe-name"
ESCAPE_ID = "esc-\x1b[2J\x1b]8;;http:evil\x07ADV\x1b]8;;\x07"  # a folder with no exercises: its name is printed
ESCAPE_ZIP = "\x1b[31mADV\x1b[0m.zip"  # not a zip: its name is printed
HONEST_FOLDERS = ["reference", *FORMULA_IDS, *LONG_FOLDER_IDS, MARKUP_ID, BIDI_ID]
HONEST_IDS = [*HONEST_FOLDERS, LONG_ZIP_ID]
LINKS = {"ghost.zip": "/nonexistent/ghost.zip", "loop.zip": "loop.zip",
         "ghost-folder": "/nonexistent/folder", "loop-folder": "loop-folder"}


@dataclass(frozen=True)
class Pair:
    """Two submissions that make one id: `older` holds the reference, `newer` a mistake."""

    id: str
    older: str
    newer: str


PAIRS = [
    Pair("café", older=unicodedata.normalize("NFC", "café.zip"), newer=unicodedata.normalize("NFD", "café")),
    Pair("alice", older="alice.zip", newer="ALICE.ZIP"),
    Pair("dave", older="dave.zip", newer="dave (1).zip"),
    Pair("bob", older="bob.zip", newer="bob"),
]
def short(name: str) -> str:
    """A test id for a name: printable, at most 24 characters."""
    return ascii(name)[1:-1][:24]


CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
BROWSER_COPY = re.compile(r" \(\d+\)$")


@dataclass
class ClassRun:
    out: Path
    report: dict
    stderr: str

    @property
    def terminal(self) -> str:
        return self.report["stdout"] + self.report["stderr"]

    def says(self, name: str) -> bool:
        """A line of the kit's own (`attnkit: ...`, not an error that ended the run) names `name`
        (as it is, or with its non-ASCII characters escaped)."""
        return any(line.startswith("attnkit: ") and not line.startswith("attnkit: error:")
                   and (name in line or ascii(name)[1:-1] in line) for line in self.stderr.splitlines())


def one_id(name: str) -> str:
    """How the contract matches two ids: NFC, case folded, a browser's ` (1)` dropped."""
    return BROWSER_COPY.sub("", unicodedata.normalize("NFC", name).casefold())


def zipped(target: Path, package: Path) -> Path:
    """`target` (a .zip) holding `package`'s .py files as `exercises/`."""
    with zipfile.ZipFile(target, "w") as archive:
        for path in sorted(package.glob("*.py")):
            archive.write(path, f"exercises/{path.name}")
    return target


def submission(folder: Path, name: str, overlay: Path | None) -> Path:
    """A folder or a zip named `name` in `folder`: the reference, with `overlay`'s modules if given."""
    if not name.lower().endswith(".zip"):
        return honest_submission(folder / name, overlay)
    package = honest_submission(folder.parent / "scratch" / name, overlay)
    return zipped(folder / name, package / "exercises")


def age(path: Path, seconds_ago: float) -> None:
    """Set the modification time of `path` and everything in it."""
    moment = time.time() - seconds_ago
    for item in [path, *(path.rglob("*") if path.is_dir() else [])]:
        os.utime(item, (moment, moment), follow_symlinks=False)


def build_class(folder: Path) -> None:
    folder.mkdir(parents=True)
    for student in HONEST_FOLDERS:
        submission(folder, student, None)
    submission(folder, f"{LONG_ZIP_ID}.zip", None)
    reference_submission(Path(os.fsdecode(bytes(folder) + b"/" + NOT_UTF8_NAME)))
    (folder / ESCAPE_ID).mkdir()
    (folder / ESCAPE_ZIP).write_bytes(b"not a zip at all")
    for name in TEXT_ATTACKS:
        overlay_submission(folder / name, TEXT_DIR / name)
    for pair in PAIRS:
        age(submission(folder, pair.older, None), 3600)
        age(submission(folder, pair.newer, WRONG_DIM), 60)
    for name, target in LINKS.items():
        (folder / name).symlink_to(target)


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> ClassRun:
    root = tmp_path_factory.mktemp("names")
    course = course_copy(root / "course", **TIGHT_SETTINGS)
    build_class(root / "submissions")
    report = grade(course, root / "submissions", root / "out", "--jobs", "2", settle=NO_DELAYED_ATTACK)
    return ClassRun(root / "out", report, unicodedata.normalize("NFC", report["stderr"]))


def rows(run: ClassRun) -> list[list[str]]:
    text = (run.out / "grades.csv").read_text(encoding="utf-8")
    return list(csv.reader(io.StringIO(text)))[1:]


def record_of(run: ClassRun, student: str) -> dict:
    matches = [r for s, r in feedback_by_student(run.out).items() if one_id(s) == one_id(student)]
    assert len(matches) == 1, f"{len(matches)} feedback records for {student!r}"
    return matches[0]


def rendered(markdown: str) -> str:
    """The page as HTML, raw HTML and every link target kept as they are (as a careless viewer would)."""
    renderer = mistune.HTMLRenderer(escape=False, allow_harmful_protocols=True)
    return mistune.create_markdown(escape=False, renderer=renderer)(markdown)


def live_markup(html: str) -> list[str]:
    """Elements a student's text became: scripts, images, javascript: links, the student's own headings."""
    patterns = [r"<script", r"<img", r"href=\"?javascript:", r"<h[1-6][^>]*>\s*ADV"]
    return [found.group(0) for pattern in patterns for found in re.finditer(pattern, html, re.IGNORECASE)]


def test_the_grader_exits_normally(graded):
    assert graded.report["returncode"] == 0, graded.report["stderr"][-3000:]


def test_no_process_is_left_behind(graded):
    assert graded.report["leftovers"] == []


def test_nothing_raw_reaches_the_instructors_terminal(graded):
    """No escape sequence, carriage return, bell, bidi override or other control character in grade's output."""
    assert CONTROL.findall(graded.terminal) == []


@pytest.mark.parametrize("student", HONEST_IDS, ids=short)
def test_an_honest_student_with_an_odd_id_is_graded_in_full(graded, student):
    record = record_of(graded, student)
    assert record["student"] == unicodedata.normalize("NFC", student)
    assert record["score"] == record["max_score"]


def test_every_id_in_the_gradebook_is_nfc_and_appears_once(graded):
    students = [row[0] for row in rows(graded)]
    assert all(unicodedata.is_normalized("NFC", s) for s in students), students
    assert len({one_id(s.lstrip("'")) for s in students}) == len(students), students


@pytest.mark.parametrize("pair", PAIRS, ids=[short(p.id) for p in PAIRS])
def test_two_submissions_with_one_id_make_one_row_graded_from_the_newer(graded, pair):
    matching = [row for row in rows(graded) if one_id(row[0].lstrip("'")) == one_id(pair.id)]
    assert len(matching) == 1, matching
    assert "softmax-wrong-dim" in record_of(graded, pair.id)["exercises"]["softmax"]["mistakes"]


@pytest.mark.parametrize("pair", PAIRS, ids=[short(p.id) for p in PAIRS])
def test_a_warning_names_the_submission_not_graded(graded, pair):
    assert graded.says(unicodedata.normalize("NFC", pair.older)), graded.stderr[-2000:]


def test_no_gradebook_cell_starts_a_formula(graded):
    cells = [cell for row in rows(graded) for cell in row]
    assert [cell for cell in cells if cell.startswith(FORMULA_START)] == []


@pytest.mark.parametrize("student", FORMULA_IDS, ids=short)
def test_a_formula_like_id_keeps_its_row(graded, student):
    assert any(row[0].endswith(student) for row in rows(graded)), rows(graded)


def test_every_file_name_fits_the_file_system(graded):
    for path in graded.out.rglob("*"):
        assert len(os.fsencode(path.name)) <= 255, path
        os.fsencode(path.name).decode("utf-8")  # no stray byte of a name that was not UTF-8


def test_an_id_that_is_not_utf8_is_refused_or_graded_safely(graded):
    """Not UTF-8: graded under an id that is text, or refused with a warning; the class is graded either way."""
    ids = [s for s in feedback_by_student(graded.out) if s.startswith("bad-")]
    assert ids or graded.says("bad-"), graded.stderr[-2000:]
    for student in ids:
        student.encode("utf-8")  # no surrogate standing in for a byte of the name


@pytest.mark.parametrize("name", LINKS)
def test_a_link_that_leads_nowhere_is_refused_with_a_warning(graded, name):
    assert graded.says(name), graded.stderr[-2000:]


@pytest.mark.parametrize("name", TEXT_ATTACKS)
def test_hostile_text_fails_its_own_exercise(graded, name):
    record = record_of(graded, name)
    for exercise_id in attacked_exercises(TEXT_DIR / name):
        result = record["exercises"][exercise_id]
        assert result["score"] == 0, result
        assert name.split("--")[0] in result["mistakes"], result


def test_no_feedback_page_holds_live_markup(graded):
    pages = sorted((graded.out / "feedback").glob("*.md"))
    assert pages
    found = {page.name: live_markup(rendered(page.read_text(encoding="utf-8"))) for page in pages}
    assert {name: markup for name, markup in found.items() if markup} == {}


def test_no_feedback_page_holds_control_characters(graded):
    found = {page.name: CONTROL.findall(page.read_text(encoding="utf-8"))
             for page in (graded.out / "feedback").glob("*.md")}
    assert {name: chars for name, chars in found.items() if chars} == {}


def test_no_html_page_holds_a_students_markup(graded):
    """Any HTML the kit writes (the class report): the students' tags arrive escaped, never as tags."""
    for page in graded.out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "<script>alert('ADV')" not in text and '<img src="x"' not in text, page
        assert CONTROL.findall(text) == [], page


def test_no_file_the_kit_writes_is_huge(graded):
    assert oversized_files(graded.out) == {}


def test_every_file_the_kit_writes_is_readable(graded):
    assert unreadable_files(graded.out) == {}
