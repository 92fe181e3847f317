"""Locking a freshly forked sandbox process down, on Linux, as root.

The warm parent forks a *keeper* per submission; the keeper calls
`enter_namespaces` (new mount, pid, network, ipc and uts namespaces) and forks
the *sandbox*, which becomes pid 1 of its own pid namespace: when it dies the
kernel kills everything it started, however detached. The sandbox then calls
`confine`: a new root of its own (a tmpfs holding read-only binds of the
system and Python folders, a read-only copy of the submission at /submission, a small
private /tmp, a minimal /dev and a fresh /proc that shows only its own
processes), resource limits, and an unprivileged uid of its own with no
capabilities. So it cannot read the course repo, write outside /tmp, see or
signal any other process, or reach the network.

Where namespaces are not allowed (not root, not Linux, a container that
forbids them) `probe` says why and the sandbox keeps only the rlimits.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import resource
import sys
from dataclasses import dataclass
from pathlib import Path

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
NAMESPACES = CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWPID | CLONE_NEWNET

MS_RDONLY = 0x1
MS_NOSUID = 0x2
MS_NODEV = 0x4
MS_NOEXEC = 0x8
MS_REMOUNT = 0x20
MS_BIND = 0x1000
MS_REC = 0x4000
MS_PRIVATE = 0x40000

PR_SET_PDEATHSIG = 1
PR_SET_NO_NEW_PRIVS = 38

SUBMISSION = "/submission"
PACKAGE = "exercises"
SCRATCH = "/tmp"
SYSTEM_DIRS = ("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32")
DEVICES = ("null", "zero", "random", "urandom")
UID_BASE = 2_000_000  # sandbox uids are UID_BASE + the keeper's pid: unused by anyone, distinct per sandbox
SCRATCH_MB = 64
MAX_PROCESSES = 64
MAX_OPEN_FILES = 256
MAX_FILE_MB = 16

UNENFORCED = ("student code can read every file this user can (solutions/ and graders/ included), "
              "write where this user can, use the network and signal this user's processes, "
              "and a detached process it starts may outlive grading")

_libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


@dataclass(frozen=True)
class ResourceLimits:
    """The rlimits of one sandbox process (and everything it starts)."""

    memory_mb: int
    cpu_seconds: int


def _check(result: int, what: str) -> None:
    if result != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"{what}: {os.strerror(error)}")


def unshare(flags: int) -> None:
    _check(_libc.unshare(ctypes.c_int(flags)), "unshare")


def _bytes(text: str | None) -> bytes | None:
    return None if text is None else text.encode()


def mount(source: str | None, target: str, fstype: str | None, flags: int = 0, data: str | None = None) -> None:
    _check(_libc.mount(_bytes(source), _bytes(target), _bytes(fstype), ctypes.c_ulong(flags), _bytes(data)),
           f"mount {target}")


def prctl(option: int, value: int) -> None:
    _check(_libc.prctl(ctypes.c_int(option), ctypes.c_ulong(value), 0, 0, 0), "prctl")


def die_with_parent() -> None:
    """SIGKILL this process when the process that forked it dies."""
    prctl(PR_SET_PDEATHSIG, 9)


def probe() -> str | None:
    """None when this machine lets us isolate sandboxes; else the reason it does not."""
    if not sys.platform.startswith("linux"):
        return f"namespaces need Linux (this is {sys.platform})"
    if os.geteuid() != 0:
        return "namespaces and a separate uid need root"
    pid = os.fork()
    if pid == 0:
        try:
            enter_namespaces()
            os._exit(0)
        except BaseException:
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    return None if os.waitstatus_to_exitcode(status) == 0 else "unshare or mount was refused"


def enter_namespaces() -> None:
    """In the keeper: new namespaces; its next child is pid 1 of the new pid namespace."""
    unshare(NAMESPACES)
    mount(None, "/", None, MS_REC | MS_PRIVATE)


def readable_roots() -> list[str]:
    """The host folders a sandbox may read: the system's and Python's (stdlib, site-packages, torch)."""
    roots = [d for d in SYSTEM_DIRS if os.path.isdir(d) and not os.path.islink(d)]
    for folder in {sys.prefix, sys.base_prefix, *_package_homes()}:
        if not any(folder == r or folder.startswith(r + "/") for r in roots):
            roots.append(folder)
    return roots


def _package_homes() -> list[str]:
    """site-packages folders holding the modules a sandbox needs (they may live outside sys.prefix)."""
    homes = []
    for name in ("torch", "numpy"):
        module = sys.modules.get(name)
        if module is not None and getattr(module, "__file__", None):
            homes.append(str(Path(module.__file__).resolve().parents[1]))
    return homes


def build_root(new_root: str, package_root: str, roots: list[str], uid: int) -> None:
    """In the sandbox (pid 1 of its namespace): assemble its file system in `new_root` and chroot there."""
    os.umask(0o022)
    mount("tmpfs", new_root, "tmpfs", MS_NOSUID | MS_NODEV, f"size={SCRATCH_MB}m,mode=755")
    # The private /tmp first: a Python installed under /tmp (a venv, a CI checkout) is bound on top of it.
    os.makedirs(new_root + SCRATCH)
    mount("tmpfs", new_root + SCRATCH, "tmpfs", MS_NOSUID | MS_NODEV,
          f"size={SCRATCH_MB}m,mode=700,uid={uid},gid={uid}")
    for folder in roots:
        _bind(folder, new_root + folder, read_only=True)
    for link in SYSTEM_DIRS:
        if os.path.islink(link):
            os.symlink(os.readlink(link), new_root + link)
    if (Path(package_root) / PACKAGE).is_dir():  # else the import fails, and says so, in the sandbox
        copy_package(Path(package_root) / PACKAGE, Path(new_root + SUBMISSION) / PACKAGE)
    else:
        os.makedirs(new_root + SUBMISSION)
    os.makedirs(new_root + "/dev")
    for device in DEVICES:
        open(f"{new_root}/dev/{device}", "w").close()
        _bind(f"/dev/{device}", f"{new_root}/dev/{device}", read_only=False)
    os.makedirs(new_root + "/proc")
    mount("proc", new_root + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    mount(None, new_root, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
    os.chroot(new_root)
    os.chdir(SCRATCH)


def copy_package(source: Path, target: Path) -> None:
    """Copy the submission's package (regular files and folders only, never a link) readable by anyone.

    A copy rather than a bind: the grader's scratch folders are private (0700), and
    a link in the submission must not lead the copy, made as root, into the course.
    """
    target.mkdir(mode=0o755, parents=True)
    for entry in os.scandir(source):
        if entry.is_dir(follow_symlinks=False):
            copy_package(Path(entry.path), target / entry.name)
        elif entry.is_file(follow_symlinks=False):
            with open(entry.path, "rb") as original:
                (target / entry.name).write_bytes(original.read(MAX_FILE_MB * 1024 * 1024))
            os.chmod(target / entry.name, 0o644)


def _bind(source: str, target: str, *, read_only: bool) -> None:
    if os.path.isdir(source):
        os.makedirs(target, exist_ok=True)
    mount(source, target, None, MS_BIND | MS_REC)
    flags = MS_BIND | MS_REMOUNT | MS_NOSUID | (MS_RDONLY | MS_NODEV if read_only else 0)
    mount(None, target, None, flags)


def limit_resources(limits: ResourceLimits, *, isolated: bool) -> None:
    """Memory, CPU time, file size, open files, core dumps; processes too when the uid is the sandbox's own."""
    memory = limits.memory_mb * 1024 * 1024
    caps = {
        resource.RLIMIT_AS: memory,
        resource.RLIMIT_CPU: limits.cpu_seconds,
        resource.RLIMIT_FSIZE: MAX_FILE_MB * 1024 * 1024,
        resource.RLIMIT_NOFILE: MAX_OPEN_FILES,
        resource.RLIMIT_CORE: 0,
    }
    if isolated:  # RLIMIT_NPROC counts every process of the uid: only safe on a uid no one else uses
        caps[resource.RLIMIT_NPROC] = MAX_PROCESSES
    for kind, value in caps.items():
        soft, hard = resource.getrlimit(kind)
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        try:
            resource.setrlimit(kind, (value, value))
        except (ValueError, OSError):  # a limit this platform refuses (macOS and RLIMIT_AS): go without it
            pass


def drop_privileges(uid: int) -> None:
    """Become `uid` with no groups, no capabilities and no way to gain any back (setuid binaries included)."""
    prctl(PR_SET_NO_NEW_PRIVS, 1)
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
