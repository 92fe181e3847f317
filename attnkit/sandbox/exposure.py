"""Where namespaces are refused: can student code reach the course? Asked before any of it runs.

Docker and Kubernetes drop CAP_SYS_ADMIN, so in a container the sandbox has no mount namespace to
hide the course in (see `isolation.probe`). There student code runs as a uid of its own (as root) or
as this user (not root): it can read every file that uid can, and a course cloned with the usual
umask (022) is world-readable. So each route that grades asks `refuse_if_exposed` first. The answer
is decided by trying, not by reading permission bits: a child process takes a uid of the sandboxes'
range (every one of them is "other" to every course file, as the real sandbox's uid is) and tries to
read every file and list or write every folder of `solutions/`, `graders/`, `course.toml`, the course
repository's `.git` and the output folder, and the same of the course beside the kit's own code when the
kit runs from a checkout of a course repository (student code finds it through `attnkit.__file__`).
A folder on the way that it cannot traverse stops it, as it would stop the sandbox; ACLs and security
modules are obeyed as they would be for the sandbox. Not root, the sandbox runs as this user, who can
read the course by definition.

If anything is reachable the route refuses with one line naming the path and what to do, unless the
instructor accepted the risk (`--unisolated`, `c.KitExecute.unisolated`, `ATTNKIT_UNISOLATED=1`).
`attnkit check` never asks: a student checking their own work has nothing to hide from themselves.
"""
from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from attnkit.config import Course
from attnkit.errors import KitError
from attnkit.sandbox import isolation

PROBE_UID = isolation.UID_BASE  # the sandboxes' uids are UID_BASE + a pid: this one is never a live sandbox's
UNISOLATED_FLAG = "--unisolated"


class CourseExposed(KitError):
    """Grading refused: student code could reach the course (one line: the path, and what to do)."""


@dataclass(frozen=True)
class Exposure:
    """One thing student code could reach, and how."""

    path: Path
    how: str  # "read", "listed", "written to"

    def __str__(self) -> str:
        return f"{self.path} can be {self.how}"


def course_secrets(course: Course) -> list[Path]:
    """What of a course student code must not reach: the reference, the graders, the mistakes, course.toml,
    and the course repository's git history (which holds them all, however private the folders are now)."""
    return [course.file, course.solutions_dir, course.graders_dir, course.mistakes_dir, course.root / ".git"]


def kit_checkout_secrets() -> tuple[Path | None, list[Path]]:
    """The course beside the kit's own code, when the kit runs from a checkout of a course repository (an
    editable install, as in this repository and its CI): student code finds it through `attnkit.__file__`
    whichever course is graded. Its root and what of it must be out of reach ((None, []) when no course)."""
    import attnkit
    from attnkit.config import COURSE_FILE, load_course

    root = Path(attnkit.__file__).resolve().parents[1]
    if not (root / COURSE_FILE).is_file():
        return None, []
    try:
        return root, course_secrets(load_course(root / COURSE_FILE))
    except KitError:  # a course.toml the kit cannot read: all of the checkout, then
        return root, [root]


def first_exposure(paths: Sequence[Path], uid: int | None) -> Exposure | None:
    """The first file or folder in `paths` (each with everything under it) that a process running as `uid`
    can read, list or write; None when it reaches none. `uid` None: as this user, in this process.

    As root the test runs in a child that drops to `uid` as the fallback's sandbox does
    (`isolation.drop_privileges`); a child that cannot (a container that refuses setuid or seccomp)
    reports the first path as reachable as root, which is what student code would then run as."""
    targets = list(_everything_under(paths))
    if uid is None or not targets:
        return _first_reachable(targets)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - in the child
        try:
            os.close(read_end)
            try:
                isolation.drop_privileges(uid)  # as the fallback's sandbox does: where this fails, so does it
                found = _first_reachable(targets)
            except OSError:
                found = Exposure(targets[0][0], "read as root (no uid of its own could be taken)")
            reply = {} if found is None else {"path": str(found.path), "how": found.how}
            os.write(write_end, json.dumps(reply).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as replies:
        data = replies.read()
    os.waitpid(pid, 0)
    reply = json.loads(data or b'{"path": "", "how": "reached (the test of access died)"}')
    return Exposure(Path(reply["path"] or targets[0][0]), reply["how"]) if reply else None


def _everything_under(paths: Sequence[Path]) -> Iterator[tuple[Path, bool]]:
    """Each path that exists, and all under it (links not followed): (path, is a folder)."""
    for path in paths:
        if path.is_dir() and not path.is_symlink():
            for top, folders, files in os.walk(path):
                yield Path(top), True
                yield from ((Path(top) / name, False) for name in files)
                yield from ((Path(top) / name, False) for name in folders if (Path(top) / name).is_symlink())
        elif path.exists():
            yield path, False


def _first_reachable(targets: list[tuple[Path, bool]]) -> Exposure | None:
    for path, is_folder in targets:
        how = _reach(path, is_folder)
        if how:
            return Exposure(path, how)
    return None


def _reach(path: Path, is_folder: bool) -> str:
    """How this process can reach `path` ("" when it cannot), by trying to read and by asking about writing."""
    if is_folder:
        try:
            os.listdir(path)
            return "listed"
        except OSError:
            pass
    else:
        try:
            os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY))
            return "read"
        except OSError:
            pass
    return "written to" if os.access(path, os.W_OK) else ""


def student_uid() -> int | None:
    """The uid student code runs as where namespaces are refused: one of its own as root on Linux (the warm
    fork's fallback), else this user's (None; macOS's fresh process keeps it)."""
    return PROBE_UID if os.geteuid() == 0 and sys.platform.startswith("linux") else None


def refuse_if_exposed(course: Course, outputs: Sequence[Path], *, unisolated: bool, accept: str,
                      as_this_user: bool = False) -> Exposure | None:
    """Before any student code runs: where namespaces are refused, raise CourseExposed (one line: the path, and
    what to do) if student code could reach the course or `outputs`. `accept` names how the instructor
    accepts the risk on this route; with `unisolated` the exposure found is returned instead, for a warning.
    `as_this_user`: student code runs as this user on this route (nbgrader's unconfined kernel)."""
    refusal = isolation.probe()
    if refusal is None:
        return None
    uid = None if as_this_user else student_uid()
    checkout, beside_the_kit = kit_checkout_secrets()
    found = first_exposure([*course_secrets(course), *outputs, *beside_the_kit], uid)
    if found is None or unisolated:
        return found
    if uid is None:
        whom, fix = "as this user", "grade as root where namespaces are allowed"
    else:
        roots = [*outputs, course.root, *([checkout] if checkout else [])]
        where = next((str(p) for p in roots if found.path == p or p in found.path.parents), str(found.path))
        whom = "as a uid of its own"
        fix = f"make it private (chmod -R o-rwx {where}), grade where namespaces are allowed"
    raise CourseExposed(f"student code would run without namespaces here ({refusal}) and, {whom}, {found}: "
                        f"{fix}, or {accept} to accept the risk")


def unisolated_warning(found: Exposure) -> str:
    """The one line said when the instructor accepted the risk and it is real."""
    return f"warning: unisolated grading accepted: student code can reach the course ({found})"
