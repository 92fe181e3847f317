"""Whole-submission limits: one cgroup a sandbox holds all its processes and the memory they use.

rlimits bound one process at a time, so a submission that forks, or keeps memory
in files (memfd, tmpfs), could hold far more than `memory_limit_mb`. A cgroup
counts all of it together: every process of the submission, the pages they
write (anonymous, shared, memory files; kernel memory too on v1) and their number.

The warm parent opens a `CgroupTree` once: a folder of its own under its own
cgroup (or, on v2, the root when its own cannot delegate). For each sandbox it
creates a cgroup there before forking; the sandbox moves itself in before it
does anything else, so everything it ever starts is inside. Two layouts:

- cgroup v2 with the memory and pids controllers: `memory.max`, no swap,
  `memory.oom.group` (running out of memory kills every process of the
  submission at once), `pids.max`; `cgroup.kill` empties it.
- cgroup v1 `memory` and `pids` hierarchies (also hybrid machines, whose v2 is
  mounted without controllers): `memory.limit_in_bytes` and, where swap
  accounting exists, `memory.memsw.limit_in_bytes`; the kernel's OOM killer is
  off for it and an eventfd wakes the warm parent instead, which ends the whole
  submission (v1 would kill one process and let the rest run on); `pids.max`;
  emptied by killing what `cgroup.procs` lists until nothing is left.

Where neither is usable (not Linux, not root, no such controllers) `open_tree`
says why, and sandboxes keep only their per-process rlimits.
"""
from __future__ import annotations

import errno
import os
import signal
import time
from pathlib import Path
from typing import Protocol

TREE_PREFIX = "attnkit-"
EMPTYING_ROUNDS = 200  # about a second of 5 ms waits for killed processes to leave
EMPTYING_WAIT = 0.005


class Cgroup(Protocol):
    """One sandbox's cgroup."""

    @property
    def memory_alarm(self) -> int | None:
        """An fd readable when the submission runs out of memory and the kernel did not end it."""

    def join(self) -> None:
        """In the sandbox, first thing: move this process (and so all it will start) in."""

    def ran_out_of_memory(self) -> bool:
        """Whether the memory limit was reached so hard that the submission had to end (before `remove`)."""

    def remove(self) -> None:
        """Kill whatever is still inside and remove the cgroup."""


class CgroupV2:
    def __init__(self, path: Path, memory_bytes: int, processes: int):
        path.mkdir()
        self.path = path
        self.memory_alarm = None
        _write(path / "memory.max", memory_bytes)
        _write_if_present(path / "memory.swap.max", 0)
        _write(path / "memory.oom.group", 1)
        _write(path / "pids.max", processes)

    def join(self) -> None:
        _write(self.path / "cgroup.procs", 0)

    def ran_out_of_memory(self) -> bool:
        events = _counters(self.path / "memory.events")
        return events.get("oom_kill", 0) > 0 or events.get("oom_group_kill", 0) > 0

    def remove(self) -> None:
        if (self.path / "cgroup.kill").exists():
            _write(self.path / "cgroup.kill", 1)
        _empty_and_remove([self.path], self.path / "cgroup.procs")


class CgroupV1:
    def __init__(self, memory: Path, pids: Path, memory_bytes: int, processes: int):
        memory.mkdir()
        pids.mkdir()
        self.memory, self.pids = memory, pids
        _write(memory / "memory.limit_in_bytes", memory_bytes)
        _write_if_present(memory / "memory.memsw.limit_in_bytes", memory_bytes)  # swap is memory too
        _write(memory / "memory.oom_control", 1)  # no kernel OOM kill of one process: we end them all
        _write(pids / "pids.max", processes)
        self.memory_alarm = os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)
        control = os.open(memory / "memory.oom_control", os.O_RDONLY | os.O_CLOEXEC)
        try:
            _write(memory / "cgroup.event_control", f"{self.memory_alarm} {control}")
        finally:
            os.close(control)
        self._alarmed = False

    def join(self) -> None:
        # This thread alone (the process has no other yet): moving a whole thread group would wait
        # for an RCU grace period under the kernel's global threadgroup lock, milliseconds a sandbox.
        _write(self.memory / "tasks", 0)
        _write(self.pids / "tasks", 0)

    def ran_out_of_memory(self) -> bool:
        try:
            self._alarmed |= os.eventfd_read(self.memory_alarm) > 0
        except BlockingIOError:
            pass
        return self._alarmed or _counters(self.memory / "memory.oom_control").get("oom_kill", 0) > 0

    def remove(self) -> None:
        try:
            _empty_and_remove([self.memory, self.pids], self.pids / "cgroup.procs")
        finally:
            os.close(self.memory_alarm)  # after the rmdir, which signals it one last time


class CgroupTree:
    """The warm parent's folder in each hierarchy it uses; one cgroup a sandbox inside it."""

    def __init__(self, kind: str, bases: list[Path]):
        self.kind = kind
        self.bases = bases
        self._count = 0

    def create(self, memory_mb: int, processes: int) -> Cgroup:
        self._count += 1
        name = f"sandbox-{self._count}"
        memory_bytes = memory_mb * 1024 * 1024
        if self.kind == "v2":
            return CgroupV2(self.bases[0] / name, memory_bytes, processes)
        return CgroupV1(self.bases[0] / name, self.bases[1] / name, memory_bytes, processes)

    def remove(self) -> None:
        """Remove the folders, and any sandbox cgroup still in them, with what runs there."""
        for base in self.bases:
            _remove_tree(base)


def open_tree() -> tuple[CgroupTree | None, str | None]:
    """This process's folder for sandbox cgroups, or None and the reason there is none."""
    if not os.path.exists("/proc/self/cgroup"):
        return None, "cgroups need Linux"
    if os.geteuid() != 0:
        return None, "cgroups need root"
    mounts, own = _mounts(), _own_cgroups()
    name = f"{TREE_PREFIX}{os.getpid()}"
    unified = mounts.get("cgroup2")
    try:
        if unified and {"memory", "pids"} <= _words(Path(unified[1]) / "cgroup.controllers"):
            return CgroupTree("v2", [_delegated_v2(unified, own.get("", "/"), name)]), None
        if "memory" in mounts and "pids" in mounts:
            bases = [_folder(mounts[c], own.get(c, "/")) / name for c in ("memory", "pids")]
            for base in bases:
                _sweep_stale(base.parent)
                base.mkdir()
            return CgroupTree("v1", bases), None
    except OSError as error:
        return None, f"could not make cgroups ({error.strerror}: {error.filename})"
    return None, "no cgroup memory and pids controllers on this machine"


def _delegated_v2(mount: tuple[str, str], own: str, name: str) -> Path:
    """A folder whose children get the memory and pids controllers: under our own cgroup if it can
    hand them down (only a cgroup without processes of its own, or the root, can), else under the root."""
    failure: OSError | None = None
    for parent in dict.fromkeys([_folder(mount, own), Path(mount[1])]):
        base = parent / name
        try:
            _sweep_stale(parent)
            _enable_controllers(parent)
            base.mkdir()
            _enable_controllers(base)
            return base
        except OSError as error:
            failure = error
            if base.is_dir():
                base.rmdir()
    assert failure is not None  # the loop tried at least the root
    raise failure


def _enable_controllers(folder: Path) -> None:
    if not {"memory", "pids"} <= _words(folder / "cgroup.subtree_control"):
        _write(folder / "cgroup.subtree_control", "+memory +pids")


def _mounts() -> dict[str, tuple[str, str]]:
    """(root inside the hierarchy, mount point) of the cgroup2 mount and of the v1 memory and pids ones."""
    found: dict[str, tuple[str, str]] = {}
    with open("/proc/self/mountinfo") as mountinfo:
        for line in mountinfo:
            fields, _, tail = line.partition(" - ")
            fstype, _, options = tail.split()[:3]
            root, point = fields.split()[3:5]
            if fstype == "cgroup2":
                found.setdefault("cgroup2", (root, point))
            elif fstype == "cgroup":
                for controller in {"memory", "pids"} & set(options.split(",")):
                    found.setdefault(controller, (root, point))
    return found


def _own_cgroups() -> dict[str, str]:
    """This process's cgroup path by controller ("" for v2)."""
    own: dict[str, str] = {}
    with open("/proc/self/cgroup") as cgroups:
        for line in cgroups:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            for controller in controllers.split(","):
                own[controller] = path
    return own


def _folder(mount: tuple[str, str], path: str) -> Path:
    root, point = mount
    if root != "/" and not (path + "/").startswith(root.rstrip("/") + "/"):
        raise OSError(errno.ENOENT, "our cgroup is outside the mounted hierarchy", path)
    return Path(point) / path[len(root.rstrip("/")):].lstrip("/")


def _sweep_stale(parent: Path) -> None:
    """Remove the folders of warm parents that died without cleaning up (killed -9, say)."""
    for folder in parent.glob(TREE_PREFIX + "*"):
        try:
            os.kill(int(folder.name[len(TREE_PREFIX):]), 0)
        except ProcessLookupError:
            _remove_tree(folder)
        except (ValueError, PermissionError):
            pass


def _remove_tree(folder: Path) -> None:
    """Empty and remove `folder` and every cgroup in it, deepest first."""
    if not folder.is_dir():
        return
    for child in [p for p in folder.iterdir() if p.is_dir()]:
        _remove_tree(child)
    _empty_and_remove([folder], folder / "cgroup.procs")


def _empty_and_remove(folders: list[Path], procs: Path) -> None:
    """Kill every process listed in `procs` until none is left, then remove `folders`.

    Without a pid namespace a killed process may still be exiting, and a
    process may have forked between a read and the kills: so, rounds.
    """
    for round_ in range(EMPTYING_ROUNDS):
        try:
            pids = [int(p) for p in procs.read_text().split()]
        except FileNotFoundError:
            pids = []
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            for folder in folders:
                if folder.is_dir():
                    folder.rmdir()
            return
        except OSError as error:
            if error.errno != errno.EBUSY or round_ == EMPTYING_ROUNDS - 1:
                raise
        time.sleep(EMPTYING_WAIT)


def _write(path: Path, value: object) -> None:
    with open(path, "w") as stream:
        stream.write(str(value))


def _write_if_present(path: Path, value: object) -> None:
    if path.exists():
        _write(path, value)


def _words(path: Path) -> set[str]:
    try:
        return set(path.read_text().split())
    except OSError:
        return set()


def _counters(path: Path) -> dict[str, int]:
    """A flat keyed file (`name value` a line) as numbers."""
    try:
        pairs = [line.split() for line in path.read_text().splitlines()]
    except OSError:
        return {}
    return {pair[0]: int(pair[1]) for pair in pairs if len(pair) == 2 and pair[1].isdigit()}
