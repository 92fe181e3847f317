"""Locking a freshly forked sandbox process down, on Linux, as root.

The warm parent enters a mount namespace of its own and builds, once, the
read-only part of every sandbox's file system (`build_template`: a tmpfs
holding read-only binds of the system and Python folders and a minimal /dev).
For each submission it forks the sandbox into a new pid namespace, so the
sandbox is pid 1 there: when it dies the kernel kills everything it started,
however detached. The sandbox then calls `enter_own_root` (new mount, network,
ipc and uts namespaces; a private /tmp, a read-only copy of the submission at
/submission and a fresh /proc that shows only its own processes, on the
template; chroot), resource limits, and an unprivileged uid of its own with
no capabilities and no use of the kernel keyring (`drop_privileges`). So it
cannot read the course repo, write outside /tmp, see or signal any other
process, reach the network, or leave or read keys for the grader or another sandbox.

Where namespaces are not allowed (not root, not Linux, a container that
forbids them) `probe` says why and the sandbox keeps only the rlimits.

The seccomp filters (no kernel keyring, no sockets) are `attnkit.sandbox.seccomp`'s.
"""
from __future__ import annotations

import ctypes
import os
import resource
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from attnkit.sandbox.libc import LIBC, check
from attnkit.sandbox.seccomp import deny_sockets, deny_the_kernel_keyring, join_own_session_keyring

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
MNT_DETACH = 0x2

PR_SET_PDEATHSIG = 1
PR_SET_NO_NEW_PRIVS = 38

SUBMISSION = "/submission"
PACKAGE = "exercises"
SCRATCH = "/tmp"
SYSTEM_DIRS = ("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32")
DEVICES = ("null", "zero", "random", "urandom")
TEMPLATE_PREFIX = "attnkit-root-"
UID_BASE = 2_000_000  # sandbox uids are UID_BASE + the sandbox's pid: unused by anyone, distinct per live sandbox
SCRATCH_MB = 64
MAX_PROCESSES = 64
MAX_OPEN_FILES = 256
MAX_FILE_MB = 16


def unenforced() -> str:
    """What holds and what does not for student code where namespaces are refused, in one phrase (the
    fallback's warning; docs/sandbox.md says the same)."""
    if not sys.platform.startswith("linux"):
        return ("it runs as this user, with the limits this platform accepts and the time budget: it "
                "can read and write what this user can (solutions/ and graders/ included), use the network and "
                "signal this user's processes")
    held = "per-process limits, the time budget and no sockets (seccomp), but no network or other namespace"
    if os.geteuid() == 0:
        return (f"it runs as a uid of its own, with {held}: it can read every world-readable file "
                "(grading refuses when the course is one, unless the risk is accepted), write where anyone may "
                "(/tmp, which a later submission can read) and see every process")
    return (f"it runs as this user, with {held}: it can read and write what this user can "
            "(solutions/ and graders/ included) and signal this user's processes")


@dataclass(frozen=True)
class ResourceLimits:
    """The rlimits of one sandbox process (and everything it starts)."""

    memory_mb: int
    cpu_seconds: int


def unshare(flags: int) -> None:
    check(LIBC.unshare(ctypes.c_int(flags)), "unshare")


def _bytes(text: str | None) -> bytes | None:
    return None if text is None else text.encode()


def mount(source: str | None, target: str, fstype: str | None, flags: int = 0, data: str | None = None) -> None:
    check(LIBC.mount(_bytes(source), _bytes(target), _bytes(fstype), ctypes.c_ulong(flags), _bytes(data)),
           f"mount {target}")


def prctl(option: int, value: int) -> None:
    check(LIBC.prctl(ctypes.c_int(option), ctypes.c_ulong(value), 0, 0, 0), "prctl")


def die_with_parent() -> None:
    """SIGKILL this process when the process that forked it dies."""
    prctl(PR_SET_PDEATHSIG, 9)


def umount(target: str, flags: int = 0) -> None:
    check(LIBC.umount2(_bytes(target), ctypes.c_int(flags)), f"umount {target}")


def setns(fd: int, kind: int) -> None:
    check(LIBC.setns(ctypes.c_int(fd), ctypes.c_int(kind)), "setns")


def probe() -> str | None:
    """None when this machine lets us isolate sandboxes; else the reason it does not."""
    if not sys.platform.startswith("linux"):
        return f"namespaces need Linux (this is {sys.platform})"
    if os.geteuid() != 0:
        return "namespaces and a separate uid need root"
    pid = os.fork()
    if pid == 0:
        try:
            unshare(NAMESPACES)
            mount(None, "/", None, MS_REC | MS_PRIVATE)
            join_own_session_keyring()
            prctl(PR_SET_NO_NEW_PRIVS, 1)
            deny_the_kernel_keyring()
            os._exit(0)
        except BaseException:
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    return None if os.waitstatus_to_exitcode(status) == 0 else "unshare, mount, keyctl or seccomp was refused"


def readable_roots() -> list[str]:
    """The host folders a sandbox may read: the system's and Python's (stdlib, site-packages, torch)."""
    roots = [d for d in SYSTEM_DIRS if os.path.isdir(d) and not os.path.islink(d)]
    for folder in {sys.prefix, sys.base_prefix, *_package_homes()}:
        if not any(_inside(folder, r) for r in roots):
            roots.append(folder)
    return roots


def _package_homes() -> list[str]:
    """site-packages folders holding the modules a sandbox needs (they may live outside sys.prefix)."""
    homes = []
    for name in ("torch", "numpy"):
        file = getattr(sys.modules.get(name), "__file__", None)
        if file:
            homes.append(str(Path(file).resolve().parents[1]))
    return homes


def build_template(roots: list[str]) -> str:
    """In the warm parent, once: a mount namespace of its own holding the read-only part of every sandbox's root.

    The mounts exist only in the warm parent's namespace and the copies its
    sandboxes get: when they end, so do the mounts. Returns the template's folder.
    """
    os.umask(0o022)
    unshare(CLONE_NEWNS)
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    _remove_stale_templates()
    template = tempfile.mkdtemp(prefix=f"{TEMPLATE_PREFIX}{os.getpid()}-")
    _fill_template(template, roots)
    return template


def _remove_stale_templates() -> None:
    """The (empty) template folders of warm parents killed before they could remove them."""
    for folder in left_by_dead_processes(Path(tempfile.gettempdir()), TEMPLATE_PREFIX):
        try:
            folder.rmdir()
        except OSError:  # not empty: leave it
            pass


def left_by_dead_processes(parent: Path, prefix: str) -> list[Path]:
    """This user's folders in `parent` named `<prefix><pid>-...` whose process is gone: what a run killed
    before it could clean up left. Linux only, where /proc says which processes live (none elsewhere); a
    pid taken again by another process keeps its folder, so a folder in use is never among them."""
    if not sys.platform.startswith("linux"):
        return []
    found = []
    for path in parent.glob(f"{prefix}*-*"):
        owner = path.name[len(prefix):].split("-")[0]
        try:
            mine = path.lstat().st_uid == os.getuid() and path.is_dir() and not path.is_symlink()
        except OSError:
            continue
        if mine and owner.isdigit() and not os.path.exists(f"/proc/{owner}"):
            found.append(path)
    return found


def remove_template(template: str) -> None:
    umount(template, MNT_DETACH)
    os.rmdir(template)


def enter_own_root(template: str, package_root: str, roots: list[str], uid: int) -> None:
    """In the sandbox (pid 1 of its pid namespace): mount, ipc and uts namespaces of its own, and its own
    root on a copy of the template. Its network namespace is the warm parent's empty one
    (`leave_the_network`), where it cannot open a socket at all (`deny_sockets`)."""
    unshare(NAMESPACES & ~CLONE_NEWPID & ~CLONE_NEWNET)
    _own_parts(template, package_root, roots, uid)


def leave_the_network() -> None:
    """The warm parent's own network namespace, empty (a loopback device, down), which every sandbox it
    forks shares.

    A namespace for each sandbox, made and torn down (the kernel frees it in a worker thread, behind
    an RCU grace period), cost 0.7 s of a 1,000-student class. Shared, it could carry data between two
    sandboxes through abstract unix sockets, so no sandbox may open a socket (`deny_sockets`); with
    no interface up it reaches nothing, and /proc/net shows nothing of the host's connections.
    """
    unshare(CLONE_NEWNET)


def build_root(new_root: str, package_root: str, roots: list[str], uid: int) -> None:
    """For a confined process not forked from a warm parent (nbgrader's kernel), in a mount namespace of its
    own: template and own parts at once in `new_root`, and chroot there."""
    os.umask(0o022)
    _fill_template(new_root, roots)
    _own_parts(new_root, package_root, roots, uid)


def _fill_template(template: str, roots: list[str]) -> None:
    """A read-only tmpfs with the system and Python folders bound read-only, the devices, and mount points
    for what each sandbox gets of its own (/tmp, /submission, /proc)."""
    mount("tmpfs", template, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=755")
    for folder in roots:
        if not _inside(folder, SCRATCH):  # those are bound over each sandbox's own /tmp
            _bind(folder, template + folder, read_only=True)
    for link in SYSTEM_DIRS:
        if os.path.islink(link):
            os.symlink(os.readlink(link), template + link)
    for point in (SCRATCH, SUBMISSION, "/proc", "/dev"):
        os.makedirs(template + point, exist_ok=True)
    for device in DEVICES:
        open(f"{template}/dev/{device}", "w").close()
        _bind(f"/dev/{device}", f"{template}/dev/{device}", read_only=False)
    mount(None, template, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)


def _own_parts(template: str, package_root: str, roots: list[str], uid: int) -> None:
    """A private /tmp, a read-only copy of the submission at /submission and a fresh /proc on the template;
    chroot there."""
    mount("tmpfs", template + SCRATCH, "tmpfs", MS_NOSUID | MS_NODEV,
          f"size={SCRATCH_MB}m,mode=700,uid={uid},gid={uid}")
    for folder in roots:  # a Python installed under /tmp (a venv, a CI checkout) goes on top of it
        if _inside(folder, SCRATCH):
            _bind(folder, template + folder, read_only=True)
    submission = template + SUBMISSION
    mount("tmpfs", submission, "tmpfs", MS_NOSUID | MS_NODEV, f"size={SCRATCH_MB}m,mode=755")
    if (Path(package_root) / PACKAGE).is_dir():  # else the import fails, and says so, in the sandbox
        copy_package(Path(package_root) / PACKAGE, Path(submission) / PACKAGE)
    mount(None, submission, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
    mount("proc", template + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "hidepid=2")  # its own uid's only
    os.chroot(template)
    os.chdir(SCRATCH)


def _inside(folder: str, parent: str) -> bool:
    return folder == parent or folder.startswith(parent + "/")


def sandbox_uid() -> int:
    """UID_BASE + this process's pid as the machine sees it (it is 1 in its own namespace).

    Read from the machine's /proc, before the sandbox mounts its own. Distinct for every sandbox
    alive at once, but not across time: pids come back (one reason sandboxes get no kernel keyring,
    whose per-uid keyrings outlive the uid's processes).
    """
    return UID_BASE + int(os.readlink("/proc/self"))


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


def fallback_copy_dir(pid: int, twin: bool = False) -> Path:
    """Where a sandbox without namespaces keeps a copy of the submission its own uid can read (its twin, a
    copy of its own beside it: both named by the sandbox's pid, which the warm parent knows, to remove)."""
    return Path(tempfile.gettempdir()) / f"attnkit-sandbox-{pid}{'-twin' if twin else ''}"


def confine_without_namespaces(package_root: str, copy: Path) -> str:
    """Where namespaces are refused: a uid of its own as root (`leave_root_without_namespaces`), and, as
    anyone, no sockets (there is no network namespace to keep it in). `copy`: where the package's copy goes
(`fallback_copy_dir`). Returns the package root to serve."""
    if os.geteuid() == 0:
        package_root = leave_root_without_namespaces(package_root, copy)
    prctl(PR_SET_NO_NEW_PRIVS, 1)
    deny_sockets()
    return package_root


def leave_root_without_namespaces(package_root: str, copy: Path) -> str:
    """Root, but no namespaces (a container that refuses them, such as Gradescope's): still run student code
    as a uid of its own, on a copy of its package only that uid can read, so it cannot read what only root
    can (a private course), another sandbox's submission nor write the grader's files. Best effort: where
    the container refuses this too, the code runs as it is, as the warning says. Returns the package root
    to serve."""
    uid = sandbox_uid()
    try:
        shutil.rmtree(copy, ignore_errors=True)
        copy_package(Path(package_root) / PACKAGE, copy / PACKAGE)
        for folder, _, files in os.walk(copy):
            for path in (folder, *(os.path.join(folder, name) for name in files)):
                os.chown(path, uid, uid)
        os.chmod(copy, 0o700)
        drop_privileges(uid)
    except OSError:
        return package_root if os.geteuid() == 0 else str(copy)
    return str(copy)


def drop_privileges(uid: int) -> None:
    """Become `uid` with no groups, no capabilities and no way to gain any back (setuid binaries included),
    without the kernel keyring, and still dying with its parent (a change of uid clears that)."""
    join_own_session_keyring()
    prctl(PR_SET_NO_NEW_PRIVS, 1)
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    die_with_parent()
    deny_the_kernel_keyring()
