"""Finding the submissions to grade and copying each into a scratch folder.

SUBMISSIONS is a folder of submissions, one per student, each a folder or a `.zip` named by student id;
or a single submission (a folder holding `exercises/`, or one zip). A submission holds the `exercises`
package, at its top or one folder down, or just the module files, loose. Other layouts (nbgrader's
notebooks, say) are read by readers the caller passes in: this module knows only folders and zips.

Only regular `.py` files with module names are copied out, so a submission's symlinks, data files,
conftest.py or pytest plugins never reach the grader. A broken submission is not an error: it becomes a
`Prepared` with a `problem`, graded to zeros with that reason, and the others are graded as usual.

Student ids come from the names, normalised to NFC (undecodable bytes as `\\xNN`); a browser's copy
suffix (`alice (1).zip`, with its space: `sum(1)` is an id of its own) is dropped, and ids are compared
without case. Of two submissions with one id, the most recently modified is graded and the other is
`set_aside`, for the caller to warn about.
"""
from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
import unicodedata
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import chain, islice
from pathlib import Path, PurePosixPath
from typing import Protocol

from attnkit.config import PACKAGE
from attnkit.errors import KitError

ZIP_SUFFIX = ".zip"
MAX_FILES = 200
MAX_FILE_BYTES = 1 << 20          # one source file
MAX_TOTAL_BYTES = 8 << 20          # everything unpacked from one zip
_BROWSER_COPY = re.compile(r"^(.+?)\s\(\d{1,4}\)$")  # `alice (1)`, as docs/contract.md writes it


class PackageReader(Protocol):
    """Reads a kind of submission folder that holds no `exercises` package (nbgrader's notebooks, say)."""

    def recognises(self, folder: Path) -> bool:
        """Whether `folder` is a submission of this reader's kind."""

    def read(self, folder: Path) -> dict[str, bytes]:
        """The package's files by name, or KitError saying why there are none."""


@dataclass
class Prepared:
    """One student's submission, copied to `root/exercises`, or the reason it could not be."""

    student: str
    source: Path
    root: Path | None = None
    problem: str = ""
    fingerprint: str = ""
    set_aside: list[Path] = field(default_factory=list)  # older submissions with the same id, not graded


def find_submissions(path: Path, workdir: Path, readers: Iterable[PackageReader] = ()) -> list[Prepared]:
    """Every submission under `path`, one per student id, prepared in `workdir`, sorted by id."""
    path, readers = Path(path), list(readers)
    if not path.exists():
        raise KitError(f"{path}: no such file or folder")
    if path.is_file() or (path / PACKAGE).is_dir() or any(r.recognises(path) for r in readers):
        chosen = {student_key(student_id(path)): [path]}
    else:
        chosen = _by_student(_entries(path))
    prepared = []
    for index, entries in enumerate(chosen.values()):
        newest, *older = sorted(entries, key=_modified, reverse=True)
        item = prepare(newest, Path(workdir) / f"{index:05d}", readers)
        item.set_aside = older
        prepared.append(item)
    return sorted(prepared, key=lambda item: student_key(item.student))


def _entries(folder: Path) -> list[Path]:
    """The folder's submissions: folders, zips and links (a broken link is a broken submission)."""
    try:
        entries = sorted(folder.iterdir())
    except OSError as error:
        raise KitError(f"{folder}: cannot list the folder: {error.strerror}") from None
    found = [p for p in entries if not p.name.startswith((".", "_"))
             and (p.is_symlink() or p.is_dir() or p.name.lower().endswith(ZIP_SUFFIX))]
    if not found:
        raise KitError(f"{folder}: no submissions here (expected folders or .zip files, one per student)")
    return found


def _by_student(entries: list[Path]) -> dict[str, list[Path]]:
    groups: dict[str, list[Path]] = {}
    for entry in entries:
        groups.setdefault(student_key(student_id(entry)), []).append(entry)
    return groups


def _modified(entry: Path) -> tuple[float, str]:
    """When the submission last changed: the newest of the entry and what it holds (three folders down)."""
    paths = [entry]
    if entry.is_dir():
        paths += islice(chain(entry.glob("*"), entry.glob("*/*"), entry.glob("*/*/*")), MAX_FILES * 10)
    times = []
    for path in paths:
        try:
            times.append(path.lstat().st_mtime)
        except OSError:
            continue
    return max(times, default=0.0), entry.name


def student_id(entry: Path) -> str:
    """The id a submission's name gives: NFC, without `.zip` or a browser's ` (1)`, bad bytes as `\\xNN`."""
    name = os.fsencode(entry.name).decode("utf-8", "backslashreplace")
    if name.lower().endswith(ZIP_SUFFIX) and not entry.is_dir():
        name = name[:-len(ZIP_SUFFIX)]
    copy = _BROWSER_COPY.match(name)
    name = unicodedata.normalize("NFC", (copy.group(1) if copy else name).strip())
    return name or unicodedata.normalize("NFC", entry.name)


def student_key(student: str) -> str:
    """What makes two ids one student: `alice` and `ALICE` are the same person."""
    return unicodedata.normalize("NFC", student).casefold()


def prepare(entry: Path, target: Path, readers: Iterable[PackageReader] = ()) -> Prepared:
    """Copy one submission's package into `target/exercises`, or say why it cannot be graded."""
    item = Prepared(student_id(entry), entry)
    try:
        files = _read_submission(entry, list(readers))
    except KitError as error:
        item.problem = str(error)
        return item
    package = target / PACKAGE
    package.mkdir(parents=True)
    for name, data in files.items():
        (package / name).write_bytes(data)
    item.root = target
    item.fingerprint = fingerprint(files)
    return item


def _read_submission(entry: Path, readers: list[PackageReader]) -> dict[str, bytes]:
    try:
        mode = entry.stat().st_mode
    except OSError as error:
        if error.errno == errno.ENOENT:
            raise KitError(f"{entry}: a symbolic link that leads nowhere") from None
        if error.errno == errno.ELOOP:
            raise KitError(f"{entry}: a symbolic link that loops") from None
        raise KitError(f"{entry}: cannot read: {error.strerror}") from None
    if stat.S_ISDIR(mode):
        for reader in readers:
            if reader.recognises(entry):
                return _checked(entry, reader.read(entry))
        return read_folder(entry)
    if stat.S_ISREG(mode):
        return read_zip(entry)
    raise KitError(f"{entry}: neither a folder nor a file (a device, pipe or socket)")


def fingerprint(files: dict[str, bytes]) -> str:
    """A digest of the package's files: unchanged submissions are not graded again."""
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return digest.hexdigest()


def is_module_file(name: str) -> bool:
    """A file the package can import: `<python name>.py`."""
    return name.endswith(".py") and name[:-3].isidentifier()


def read_folder(folder: Path) -> dict[str, bytes]:
    """The module files of the submission's package folder (found at most one level down), or loose ones."""
    package = _package_dir(folder)
    files: dict[str, bytes] = {}
    try:
        for path in sorted(package.iterdir()):
            if not is_module_file(path.name) or path.is_symlink() or not path.is_file():
                continue
            if path.stat().st_size > MAX_FILE_BYTES:
                raise KitError(f"{path}: larger than {MAX_FILE_BYTES // 1024} KiB")
            files[path.name] = path.read_bytes()
    except OSError as error:
        raise KitError(f"{folder}: cannot read: {error.strerror}") from None
    return _checked(folder, files)


def _package_dir(folder: Path) -> Path:
    """`exercises/` here or one folder down; else the folder itself when it holds module files."""
    if (folder / PACKAGE).is_dir() and not (folder / PACKAGE).is_symlink():
        return folder / PACKAGE
    try:
        inner = [p for p in folder.iterdir() if p.is_dir() and not p.is_symlink() and (p / PACKAGE).is_dir()]
        loose = any(is_module_file(p.name) for p in folder.iterdir())
    except OSError as error:
        raise KitError(f"{folder}: cannot read: {error.strerror}") from None
    if len(inner) == 1 and not (inner[0] / PACKAGE).is_symlink():
        return inner[0] / PACKAGE
    if loose:
        return folder
    raise KitError(f"{folder}: no `{PACKAGE}` folder and no module files in this submission")


def _checked(source: Path, files: dict[str, bytes]) -> dict[str, bytes]:
    if not files:
        raise KitError(f"{source}: the `{PACKAGE}` folder holds no .py files")
    if len(files) > MAX_FILES:
        raise KitError(f"{source}: more than {MAX_FILES} files in `{PACKAGE}`")
    return files


def read_zip(path: Path) -> dict[str, bytes]:
    """The package's module files from a zip, refusing unsafe or oversized archives."""
    try:
        archive = zipfile.ZipFile(path)
    except zipfile.BadZipFile:
        raise KitError(f"{path}: not a zip file") from None
    except OSError as error:
        raise KitError(f"{path}: cannot read: {error.strerror}") from None
    with archive:
        infos = archive.infolist()
        if not infos:
            raise KitError(f"{path}: the zip is empty")
        for info in infos:
            _refuse_unsafe(path, info)
        members = _package_members(path, infos)
        files: dict[str, bytes] = {}
        total = 0
        for name, info in members.items():
            data = _read_member(path, archive, info, MAX_TOTAL_BYTES - total)
            total += len(data)
            files[name] = data
    return _checked(path, files)


def _refuse_unsafe(path: Path, info: zipfile.ZipInfo) -> None:
    name = PurePosixPath(info.filename)
    if name.is_absolute() or ".." in name.parts or "\\" in info.filename:
        raise KitError(f"{path}: unsafe zip: entry {info.filename!r} points outside the folder")
    if stat.S_ISLNK(info.external_attr >> 16):
        raise KitError(f"{path}: unsafe zip: entry {info.filename!r} is a symbolic link")


def _package_members(path: Path, infos: list[zipfile.ZipInfo]) -> dict[str, zipfile.ZipInfo]:
    """Members `exercises/<name>.py` (with or without one top folder), else module files loose in one folder.

    A zip of loose files is what zipping the modules themselves gives: `softmax.py` at the top, or
    `alice/softmax.py` when the folder holding them was zipped.
    """
    files = [(PurePosixPath(i.filename).parts, i) for i in infos if not i.is_dir()]
    files = [(parts, info) for parts, info in files if is_module_file(parts[-1])]
    packaged = [(parts, info) for parts, info in files if len(parts) in (2, 3) and parts[-2] == PACKAGE]
    if packaged:
        if len({parts[:-2] for parts, _ in packaged}) > 1:
            raise KitError(f"{path}: more than one `{PACKAGE}` folder in this zip")
        return {parts[-1]: info for parts, info in packaged}
    loose = [(parts, info) for parts, info in files if len(parts) <= 2]
    if not loose:
        raise KitError(f"{path}: no `{PACKAGE}` folder and no module files in this zip")
    if len({parts[:-1] for parts, _ in loose}) > 1:
        raise KitError(f"{path}: module files in more than one folder of this zip")
    return {parts[-1]: info for parts, info in loose}


def _read_member(path: Path, archive: zipfile.ZipFile, info: zipfile.ZipInfo, budget: int) -> bytes:
    """Read at most the budget, counting real bytes (a zip bomb's headers can lie)."""
    limit = min(MAX_FILE_BYTES, budget)
    try:
        with archive.open(info) as member:
            data = member.read(limit + 1)
    except (zipfile.BadZipFile, OSError, RuntimeError, EOFError, NotImplementedError) as error:
        raise KitError(f"{path}: damaged zip entry {info.filename!r}: {error}") from None
    if len(data) > limit:
        raise KitError(f"{path}: zip entry {info.filename!r} unpacks to more than allowed (a zip bomb?)")
    return data
