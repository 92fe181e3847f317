"""Finding the submissions to grade and copying each into a scratch folder.

SUBMISSIONS is a folder of submissions, one a student, each a folder or a
`.zip` named by student id; or a single submission (a folder holding
`exercises/`, or one zip). nbgrader's `submitted/` folder works too: a
student's notebooks' answer cells become their `exercises` package. Only regular `.py` files of `exercises/` are copied
out, so a submission's symlinks, data files, conftest.py or pytest plugins
never reach the grader. A broken submission is not an error: it becomes a
`Prepared` with a `problem`, graded to zeros with that reason.
"""
from __future__ import annotations

import hashlib
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from attnkit.config import Course
from attnkit.errors import KitError

PACKAGE = "exercises"
MAX_FILES = 200
MAX_FILE_BYTES = 1 << 20          # one source file
MAX_TOTAL_BYTES = 8 << 20          # everything unpacked from one zip


@dataclass
class Prepared:
    """One student's submission, copied to `root/exercises`, or the reason it could not be."""

    student: str
    source: Path
    root: Path | None = None
    problem: str = ""
    fingerprint: str = ""


def find_submissions(path: Path, workdir: Path, course: Course | None = None) -> list[Prepared]:
    """Every submission under `path`, prepared in `workdir`, sorted by student id.

    With `course`, nbgrader submissions (notebooks) are recognised and extracted.
    """
    path = Path(path)
    if not path.exists():
        raise KitError(f"{path}: no such file or folder")
    if path.is_file() or (path / PACKAGE).is_dir() or (course and _is_notebooks(path)):
        entries = [path]
    else:
        entries = sorted(p for p in path.iterdir() if not p.name.startswith((".", "_")))
        entries = [p for p in entries if p.is_dir() or p.suffix.lower() == ".zip"]
        if not entries:
            raise KitError(f"{path}: no submissions here (expected folders or .zip files, one a student)")
    prepared = [prepare(entry, Path(workdir) / f"{index:05d}", course) for index, entry in enumerate(entries)]
    seen: set[str] = set()
    for item in prepared:
        if item.student in seen:
            raise KitError(f"{item.source}: student id {item.student!r} appears twice (a folder and a zip?)")
        seen.add(item.student)
    return prepared


def student_id(entry: Path) -> str:
    return entry.stem if entry.is_file() else entry.name


def prepare(entry: Path, target: Path, course: Course | None = None) -> Prepared:
    """Copy one submission's package into `target/exercises`, or say why it cannot be graded."""
    item = Prepared(student_id(entry), entry)
    try:
        if entry.is_file():
            files = read_zip(entry)
        elif course is not None and _is_notebooks(entry):
            files = read_notebooks(entry, course)
        else:
            files = read_folder(entry)
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


def fingerprint(files: dict[str, bytes]) -> str:
    """A digest of the package's files: unchanged submissions are not graded again."""
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return digest.hexdigest()


def read_folder(folder: Path) -> dict[str, bytes]:
    """The `.py` files of the submission's package folder (found at most one level down)."""
    package = _package_dir(folder)
    files: dict[str, bytes] = {}
    for path in sorted(package.iterdir()):
        if path.suffix != ".py" or path.is_symlink() or not path.is_file():
            continue
        if path.stat().st_size > MAX_FILE_BYTES:
            raise KitError(f"{path}: larger than {MAX_FILE_BYTES // 1024} KiB")
        files[path.name] = path.read_bytes()
    return _checked(folder, files)


def _is_notebooks(folder: Path) -> bool:
    """nbgrader's layout: notebooks and no package (looked at before paying for nbformat's import)."""
    if (folder / PACKAGE).exists() or not any(folder.glob("*.ipynb")) and not any(folder.glob("*/*.ipynb")):
        return False
    from attnkit.nbgrader.extract import is_nbgrader_submission

    return is_nbgrader_submission(folder)


def read_notebooks(folder: Path, course: Course) -> dict[str, bytes]:
    """The package made from a student's nbgrader notebooks' answer cells."""
    from attnkit.nbgrader.extract import answer_sources, find_assignment_dir, package_files

    files = package_files(answer_sources(find_assignment_dir(folder)), course)
    return _checked(folder, {name: text.encode("utf-8") for name, text in files.items()})


def _package_dir(folder: Path) -> Path:
    if (folder / PACKAGE).is_dir() and not (folder / PACKAGE).is_symlink():
        return folder / PACKAGE
    inner = [p for p in folder.iterdir() if p.is_dir() and not p.is_symlink() and (p / PACKAGE).is_dir()]
    if len(inner) == 1 and not (inner[0] / PACKAGE).is_symlink():
        return inner[0] / PACKAGE
    raise KitError(f"{folder}: no `{PACKAGE}` folder in this submission")


def _checked(source: Path, files: dict[str, bytes]) -> dict[str, bytes]:
    if not files:
        raise KitError(f"{source}: the `{PACKAGE}` folder holds no .py files")
    if len(files) > MAX_FILES:
        raise KitError(f"{source}: more than {MAX_FILES} files in `{PACKAGE}`")
    return files


def read_zip(path: Path) -> dict[str, bytes]:
    """The package's `.py` files from a zip, refusing unsafe or oversized archives."""
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
    """Members `exercises/<name>.py`, with or without one top folder before `exercises/`."""
    members: dict[str, zipfile.ZipInfo] = {}
    prefixes = set()
    for info in infos:
        parts = PurePosixPath(info.filename).parts
        if info.is_dir() or len(parts) < 2 or parts[-2] != PACKAGE or not parts[-1].endswith(".py"):
            continue
        if len(parts) > 3:
            continue
        prefixes.add(parts[:-2])
        members[parts[-1]] = info
    if not members:
        raise KitError(f"{path}: no `{PACKAGE}` folder with .py files in this zip")
    if len(prefixes) > 1:
        raise KitError(f"{path}: more than one `{PACKAGE}` folder in this zip")
    return members


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
