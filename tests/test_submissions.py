"""Submission intake: folders and zips become scratch packages, broken ones become reasons."""
from __future__ import annotations

import os
import zipfile

import pytest

from attnkit.errors import KitError
from attnkit.submissions import MAX_FILE_BYTES, find_submissions, prepare
from kit import reference_submission


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
