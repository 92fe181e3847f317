"""Run a command as an instructor would, and report what it cost and every process it left behind.

Usage: python leftovers.py SETTLE_SECONDS COMMAND...  (prints one JSON object)

This process becomes a child subreaper, so anything the command starts that
outlives its parent (a double-forked daemon, a sandbox whose keeper died) is
re-parented here instead of to init. After the command exits and SETTLE
seconds pass (time for a delayed attack to strike), our remaining children
are the leftovers: they are listed, then killed.

The command runs in a session keyring of its own, as a login shell's does
(pam_keyinit): sandboxes that inherited it would share it. While it runs, the
peak resident memory of its trusted processes (itself and its grading workers,
never the sandboxes) is sampled. Its output is reported byte for byte as text
(undecodable bytes as \\x escapes), so a raw escape sequence shows as itself.
"""
import ctypes
import json
import os
import platform
import signal
import subprocess
import sys
import tempfile
import time

PR_SET_CHILD_SUBREAPER = 36
SYS_KEYCTL = {"x86_64": 250, "aarch64": 219}.get(platform.machine())
KEYCTL_JOIN_SESSION_KEYRING = 1
TRUSTED_WORKER = "attnkit.grading.parallel"
SAMPLE_SECONDS = 0.1


def _processes() -> dict[int, tuple[int, str, str]]:
    """pid -> (parent pid, state, command line) of every process we can read."""
    found = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                command = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        found[int(pid)] = (int(fields[1]), fields[0], command)
    return found


def children() -> list[dict]:
    return [{"pid": pid, "command": command} for pid, (parent, state, command) in _processes().items()
            if parent == os.getpid() and state != "Z"]


def trusted_peak_kb(root: int) -> int:
    """The largest peak resident size (VmHWM) among `root` and its grading workers, right now."""
    processes = _processes()
    trusted = [root] + [pid for pid, (_, _, command) in processes.items()
                        if TRUSTED_WORKER in command and _descends_from(pid, root, processes)]
    peak = 0
    for pid in trusted:
        try:
            with open(f"/proc/{pid}/status") as status:
                line = next(line for line in status if line.startswith("VmHWM:"))
            peak = max(peak, int(line.split()[1]))
        except (OSError, StopIteration):
            continue
    return peak


def _descends_from(pid: int, root: int, processes: dict) -> bool:
    while pid in processes and pid > 1:
        if pid == root:
            return True
        pid = processes[pid][0]
    return False


def main() -> None:
    settle, command = float(sys.argv[1]), sys.argv[2:]
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    if SYS_KEYCTL is not None:  # refused or unknown: then there is no session keyring to share
        libc.syscall(SYS_KEYCTL, KEYCTL_JOIN_SESSION_KEYRING, None)
    with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        start = time.monotonic()
        run = subprocess.Popen(command, stdout=stdout, stderr=stderr)
        peak_kb = 0
        while run.poll() is None:
            peak_kb = max(peak_kb, trusted_peak_kb(run.pid))
            time.sleep(SAMPLE_SECONDS)
        seconds = time.monotonic() - start
        outputs = []
        for stream in (stdout, stderr):
            stream.seek(0)
            outputs.append(stream.read().decode("utf-8", errors="backslashreplace"))
    time.sleep(settle)
    leftovers = children()
    for process in leftovers:
        os.kill(process["pid"], signal.SIGKILL)
    print(json.dumps({"returncode": run.returncode, "stdout": outputs[0], "stderr": outputs[1],
                      "seconds": seconds, "grader_peak_mb": peak_kb / 1024, "leftovers": leftovers}))


if __name__ == "__main__":
    main()
