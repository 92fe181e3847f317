"""Submission intake: folders and zips become scratch packages, broken ones become reasons."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from attnkit.errors import KitError
from attnkit.submissions import MAX_FILE_BYTES, find_submissions, prepare
from kit import COURSE, reference_submission


def zip_of(path, entries: dict[str, bytes], symlink: str | None = None):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
        if symlink:
            info = zipfile.ZipInfo(symlink)
            info.external_attr = 0o120777 << 16
            archive.writestr(info, "/etc/passwd")
    return path


def test_a_folder_of_folders_and_zips_is_one_student_each(tmp_path):
    reference_submission(tmp_path / "class" / "alice")
    zip_of(tmp_path / "class" / "bob.zip", {"exercises/__init__.py": b"", "exercises/softmax.py": b"x = 1\n"})
    (tmp_path / "class" / "notes.txt").write_text("not a submission")
    prepared = find_submissions(tmp_path / "class", tmp_path / "work")
    assert [p.student for p in prepared] == ["alice", "bob"]
    assert all(p.root and (p.root / "exercises" / "__init__.py").is_file() for p in prepared)


def test_a_single_submission_folder_is_graded_alone(tmp_path):
    reference_submission(tmp_path / "carol")
    [item] = find_submissions(tmp_path / "carol", tmp_path / "work")
    assert item.student == "carol" and not item.problem


def test_only_regular_python_files_are_copied(tmp_path):
    source = reference_submission(tmp_path / "dave")
    (source / "exercises" / "conftest.py").write_text("raise SystemExit")
    (source / "exercises" / "data.bin").write_bytes(b"\0" * 10)
    os.symlink("/etc/passwd", source / "exercises" / "link.py")
    item = prepare(source, tmp_path / "work")
    copied = sorted(p.name for p in (item.root / "exercises").iterdir())
    assert "data.bin" not in copied and "link.py" not in copied


def test_the_same_files_give_the_same_fingerprint(tmp_path):
    first = prepare(reference_submission(tmp_path / "a"), tmp_path / "w1")
    second = prepare(reference_submission(tmp_path / "b"), tmp_path / "w2")
    (tmp_path / "b" / "exercises" / "cake.py").write_text("KEYS = None\n")
    third = prepare(tmp_path / "b", tmp_path / "w3")
    assert first.fingerprint == second.fingerprint != third.fingerprint


@pytest.mark.parametrize("entries,symlink,reason", [
    ({"../evil.py": b"x"}, None, "points outside the folder"),
    ({"/abs/exercises/softmax.py": b"x"}, None, "points outside the folder"),
    ({"exercises/softmax.py": b"x"}, "exercises/link.py", "symbolic link"),
    ({"exercises/softmax.py": b"0" * (MAX_FILE_BYTES + 10)}, None, "zip bomb"),
    ({}, None, "the zip is empty"),
    ({"readme.txt": b"hello"}, None, "no `exercises` folder"),
])
def test_an_unsafe_or_empty_zip_is_refused_with_a_reason(tmp_path, entries, symlink, reason):
    item = prepare(zip_of(tmp_path / "eve.zip", entries, symlink), tmp_path / "work")
    assert item.root is None and reason in item.problem and "eve.zip" in item.problem
    assert not (tmp_path / "evil.py").exists()


def test_a_file_that_is_not_a_zip_is_refused(tmp_path):
    (tmp_path / "frank.zip").write_text("hello")
    item = prepare(tmp_path / "frank.zip", tmp_path / "work")
    assert "not a zip file" in item.problem


def test_a_missing_submissions_folder_is_bad_input(tmp_path):
    with pytest.raises(KitError, match="no such file or folder"):
        find_submissions(tmp_path / "nowhere", tmp_path / "work")


def reference_zip(path, prefix: str = "exercises/"):
    path.parent.mkdir(parents=True, exist_ok=True)
    return zip_of(path, {prefix + p.name: p.read_bytes() for p in COURSE.solutions_dir.glob("*.py")})


def touch(path, stamp: float):
    """Set the modification time of `path` and of everything in it."""
    for each in [path, *path.rglob("*")]:
        os.utime(each, (stamp, stamp), follow_symlinks=False)


@pytest.mark.parametrize("older,newer", [
    ("alice", "alice.zip"),          # a folder and a zip
    ("alice.zip", "alice"),
    ("alice.zip", "ALICE.ZIP"),     # ids are compared without case
    ("alice.zip", "alice (1).zip"),  # a browser's second download
    ("alice (1).zip", "Alice (2).zip"),
])
def test_two_submissions_with_one_id_make_one_the_newest_graded(tmp_path, older, newer):
    for name in (older, newer):
        reference_zip(tmp_path / "class" / name) if name.lower().endswith(".zip") else \
            reference_submission(tmp_path / "class" / name)
    touch(tmp_path / "class" / older, 1_000_000)
    touch(tmp_path / "class" / newer, 2_000_000)
    [item] = find_submissions(tmp_path / "class", tmp_path / "work")
    assert item.source.name == newer and [p.name for p in item.set_aside] == [older]
    assert not item.problem and item.student.casefold() == "alice"


def test_a_folder_with_newer_files_inside_is_the_newer_submission(tmp_path):
    reference_zip(tmp_path / "class" / "bob.zip")
    folder = reference_submission(tmp_path / "class" / "bob")
    touch(tmp_path / "class" / "bob.zip", 2_000_000)
    touch(folder, 1_000_000)
    touch(folder / "exercises" / "softmax.py", 3_000_000)  # edited after the zip, though the folder is older
    [item] = find_submissions(tmp_path / "class", tmp_path / "work")
    assert item.source.name == "bob"


def test_ids_are_normalised_to_nfc(tmp_path):
    reference_submission(tmp_path / "class" / "zoe\u0308")  # e and a combining diaeresis (macOS writes names so)
    [item] = find_submissions(tmp_path / "class", tmp_path / "work")
    assert item.student == "zo\u00eb"


def test_a_name_that_is_not_utf8_gives_a_printable_id(tmp_path):
    (tmp_path / "class").mkdir()
    reference_submission(Path(os.fsdecode(bytes(tmp_path / "class") + b"/caf\xe9")))
    [item] = find_submissions(tmp_path / "class", tmp_path / "work")
    assert item.student == "caf\\xe9" and not item.problem
    item.student.encode("utf-8")


@pytest.mark.parametrize("make,reason", [
    (lambda c: os.symlink("nowhere", c / "dan.zip"), "leads nowhere"),
    (lambda c: os.symlink("dan", c / "dan"), "loops"),
    (lambda c: os.mkfifo(c / "dan.zip"), "neither a folder nor a file"),
])
def test_a_broken_link_or_odd_file_is_refused_for_that_student_only(tmp_path, make, reason):
    reference_submission(tmp_path / "class" / "alice")
    make(tmp_path / "class")
    alice, dan = find_submissions(tmp_path / "class", tmp_path / "work")
    assert not alice.problem and alice.root is not None
    assert dan.student == "dan" and dan.root is None and reason in dan.problem


@pytest.mark.parametrize("prefix", ["", "alice/"])
def test_a_zip_of_loose_module_files_is_a_package(tmp_path, prefix):
    item = prepare(reference_zip(tmp_path / "alice.zip", prefix), tmp_path / "work")
    assert not item.problem
    assert sorted(p.name for p in (item.root / "exercises").iterdir()) == \
        sorted(p.name for p in COURSE.solutions_dir.glob("*.py"))


def test_a_folder_of_loose_module_files_is_a_package(tmp_path):
    folder = tmp_path / "class" / "alice"
    shutil.copytree(COURSE.solutions_dir, folder, ignore=shutil.ignore_patterns("__pycache__"))
    [item] = find_submissions(tmp_path / "class", tmp_path / "work")
    assert not item.problem and (item.root / "exercises" / "softmax.py").is_file()


def test_files_without_a_module_name_are_not_copied(tmp_path):
    item = prepare(zip_of(tmp_path / "a.zip", {"exercises/softmax.py": b"", "exercises/my notes.py": b"",
                                               "exercises/__MACOSX.py~": b"", "exercises/._softmax.py": b""}),
                   tmp_path / "work")
    assert [p.name for p in (item.root / "exercises").iterdir()] == ["softmax.py"]


class TextReader:
    """A reader for a layout core intake does not know: `answers.txt`, one module a `## name` section."""

    def recognises(self, folder):
        return (folder / "answers.txt").is_file()

    def read(self, folder):
        sections = (folder / "answers.txt").read_text().split("## ")[1:]
        return {f"{s.split(chr(10), 1)[0]}.py": s.split("\n", 1)[1].encode() for s in sections}


def test_readers_passed_in_read_the_folders_they_recognise(tmp_path):
    reference_submission(tmp_path / "class" / "alice")
    (tmp_path / "class" / "bob").mkdir()
    (tmp_path / "class" / "bob" / "answers.txt").write_text("## softmax\nX = 1\n## cake\nY = 2\n")
    alice, bob = find_submissions(tmp_path / "class", tmp_path / "work", readers=[TextReader()])
    assert sorted(p.name for p in (bob.root / "exercises").iterdir()) == ["cake.py", "softmax.py"]
    assert not alice.problem


def test_core_intake_knows_nothing_of_nbgrader():
    code = ("import sys, attnkit.submissions, attnkit.gradebook, attnkit.escaping; "
            "sys.exit(any(m.startswith(('attnkit.nbgrader', 'nbformat', 'nbgrader')) for m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def _module_files(folder: Path, count: int, size: int) -> Path:
    """`count` module files of `size` bytes each (sparse: they cost the disk nothing)."""
    package = folder / "exercises"
    package.mkdir(parents=True)
    for index in range(count):
        with open(package / f"m{index:04d}.py", "wb") as stream:
            stream.truncate(size)
    return folder


@pytest.mark.parametrize("count,size,reason,most", [
    (800, 8 << 10, "more than 200 files", 4 << 20),  # 800 of them: 6.4 MiB
    (9, MAX_FILE_BYTES, "more than 8 MiB of module files", 10 << 20),
    (800, MAX_FILE_BYTES, "more than 8 MiB of module files", 10 << 20),
])
def test_a_folder_is_counted_and_measured_while_it_is_read(tmp_path, count, size, reason, most):
    """A folder has a zip's limits, refused as soon as they are passed: no more is ever held than they allow
    (800 files of 8 KiB: 200 read, not 800; 800 of 1 MiB: 8 MiB read, not 800)."""
    folder = _module_files(tmp_path / "alice", count, size)
    tracemalloc.start()
    try:
        item = prepare(folder, tmp_path / "copy")
        held = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert reason in item.problem and item.root is None
    assert held < most, held


@pytest.fixture
def small_scratch(tmp_path):
    """A 256 KiB tmpfs, as a small /dev/shm would be (root only)."""
    mount = tmp_path / "small"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)], capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.decode().strip()}")
    yield mount
    subprocess.run(["umount", str(mount)], check=True)


def test_a_submission_that_does_not_fit_the_scratch_is_its_own_broken_row(tmp_path, small_scratch):
    submissions = tmp_path / "class"
    for student in ("ann", "bob"):
        reference_submission(submissions / student)
    big = _module_files(submissions / "cat", 1, MAX_FILE_BYTES // 2)
    (big / "exercises" / "m0000.py").write_bytes(b"#" * (MAX_FILE_BYTES // 2))  # real bytes, to fill the tmpfs
    prepared = {item.student: item for item in find_submissions(submissions, small_scratch)}
    assert "could not be copied out for grading" in prepared["cat"].problem
    assert not prepared["ann"].problem and not prepared["bob"].problem
    assert not (small_scratch / "00002").exists()  # the partial copy is gone
