"""A notebook's kernel, started where its cells cannot reach the course (`python -m attnkit.nbgrader.kernel`).

    python -m attnkit.nbgrader.kernel --verdicts FILE --connection-file FILE --memory-mb N --cpu-seconds N
        [--unconfined] -- KERNEL COMMAND...

nbgrader's kernel manager runs this at autograde (`autograde.ConfinedKernelManager`)
with the command it would have run. Confined (Linux, as root), this process
opens a pid namespace and forks the kernel as its pid 1. The kernel takes
mount, ipc and uts namespaces of its own and the sandbox's root
(`isolation.build_root`: the system's and Python's folders read-only, a
private /tmp, a /proc of its own namespace) plus the attnkit package, finds
the connection file and the kit's verdicts in /tmp/.attnkit, takes the
sandbox's resource limits and an unprivileged uid of its own, and runs the
command with a clean environment. So its cells cannot see `submitted/`, the
course, nbgrader or any other process, and learn no path of the course from
their environment. The network is shared: the kernel speaks to nbgrader over
loopback TCP.

This process stays outside as the kernel's parent: nbgrader's interrupts
(SIGINT) reach the kernel through it, and its end (SIGTERM, SIGHUP, SIGKILL,
or nbgrader gone) ends the kernel and with it every process the kernel started.

With --unconfined (where `isolation.probe` refuses) the command runs in this
process with the same clean environment and nothing else.
"""
from __future__ import annotations

import argparse
import os
import select
import signal
import sys
import tempfile
import traceback
from pathlib import Path

import attnkit
from attnkit.nbgrader.checks import VERDICTS_VARIABLE
from attnkit.sandbox import isolation

KERNEL_FILES = f"{isolation.SCRATCH}/.attnkit"  # in the kernel's root
CONNECTION_FILE = "connection.json"
VERDICTS_FILE = "verdicts.json"
PATH = "/usr/local/bin:/usr/bin:/bin"
PASSED_ON = ("LANG", "LC_ALL", "NBGRADER_EXECUTION", "NBGRADER_VALIDATING")


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m attnkit.nbgrader.kernel")
    parser.add_argument("--verdicts", required=True)
    parser.add_argument("--connection-file", required=True)
    parser.add_argument("--memory-mb", type=int, required=True)
    parser.add_argument("--cpu-seconds", type=int, required=True)
    parser.add_argument("--unconfined", action="store_true")
    parser.add_argument("command", nargs="+")
    return parser.parse_args(argv)


def kernel_environment(home: str) -> dict[str, str]:
    """What the kernel's environment holds: where programs and home are, the language, nbgrader's mode.

    PATH is the system's alone: the kernel's interpreter is named by its full path, and its folder on
    PATH would name the course wherever the kit runs from a virtual environment inside the course
    repository (the usual `.venv`)."""
    environment = {name: os.environ[name] for name in PASSED_ON if name in os.environ}
    environment.update(PATH=PATH, HOME=home, PYTHONDONTWRITEBYTECODE="1")
    return environment


def main(argv: list[str] | None = None) -> None:
    options = parse(sys.argv[1:] if argv is None else argv)
    if options.unconfined:
        environment = kernel_environment(os.environ.get("HOME", tempfile.gettempdir()))
        environment[VERDICTS_VARIABLE] = options.verdicts
        os.execvpe(options.command[0], options.command, environment)
    sys.exit(run_confined(options))


def run_confined(options: argparse.Namespace) -> int:
    """Fork the confined kernel as pid 1 of a new pid namespace; stay with it until it ends; its exit status."""
    files = {name: Path(path).read_bytes() for name, path in
             ((CONNECTION_FILE, options.connection_file), (VERDICTS_FILE, options.verdicts))}
    command = [f"{KERNEL_FILES}/{CONNECTION_FILE}" if arg == options.connection_file else arg
               for arg in options.command]
    environment = kernel_environment(isolation.SCRATCH)
    environment[VERDICTS_VARIABLE] = f"{KERNEL_FILES}/{VERDICTS_FILE}"
    environment["JPY_PARENT_PID"] = "1"  # ipykernel: no parent to watch (we do) and no console note
    limits = isolation.ResourceLimits(options.memory_mb, options.cpu_seconds)
    uid = isolation.UID_BASE + os.getpid()  # as the sandbox's: unused by anyone, distinct while we live
    new_root = tempfile.mkdtemp(prefix="attnkit-kernel-")
    try:
        isolation.unshare(isolation.CLONE_NEWPID)
        pid = os.fork()
        if pid == 0:
            _kernel(new_root, kernel_roots(), uid, files, limits, command, environment)
        return _stay_with(pid)
    finally:
        os.rmdir(new_root)


def kernel_roots() -> list[str]:
    """The host folders the kernel may read: the sandbox's, and the attnkit package its test cells import."""
    roots = isolation.readable_roots()
    package = str(Path(attnkit.__file__).resolve().parent)
    if not any(package == root or package.startswith(root + "/") for root in roots):
        roots.append(package)  # an editable install: only the package, never the course repo around it
    return roots


def _kernel(new_root: str, roots: list[str], uid: int, files: dict[str, bytes], limits: isolation.ResourceLimits,
            command: list[str], environment: dict[str, str]) -> None:
    """In the child, pid 1 of its namespace: confine this process, then become the kernel."""
    try:
        isolation.die_with_parent()
        os.setsid()  # out of the launcher's process group: an interrupt reaches the kernel once, through us
        isolation.unshare(isolation.CLONE_NEWNS | isolation.CLONE_NEWIPC | isolation.CLONE_NEWUTS)
        isolation.mount(None, "/", None, isolation.MS_REC | isolation.MS_PRIVATE)
        # No submission to copy: the kernel's code arrives through the notebook. (/submission stays empty.)
        isolation.build_root(new_root, new_root, roots, uid)
        os.mkdir(KERNEL_FILES)
        for name, data in files.items():
            Path(KERNEL_FILES, name).write_bytes(data)
            os.chmod(Path(KERNEL_FILES, name), 0o444)
        isolation.limit_resources(limits, isolated=True)
        isolation.drop_privileges(uid)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.execvpe(command[0], command, environment)
    except BaseException:
        traceback.print_exc()
    finally:
        os._exit(1)


def _stay_with(pid: int) -> int:
    """Pass interrupts on, end the kernel when asked or orphaned, and return how it ended."""
    kernel = os.pidfd_open(pid)

    def send(signum: int) -> None:
        try:
            signal.pidfd_send_signal(kernel, signum)
        except ProcessLookupError:
            pass

    signal.signal(signal.SIGINT, lambda *_: send(signal.SIGINT))
    for ending in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(ending, lambda *_: send(signal.SIGKILL))
    parent = os.getppid()
    while not select.select([kernel], [], [], 1.0)[0]:
        if os.getppid() != parent:
            send(signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    main()
