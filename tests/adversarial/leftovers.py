"""Run a command and report every process it left behind, however detached.

Usage: python leftovers.py SETTLE_SECONDS COMMAND...  (prints one JSON object)

This process becomes a child subreaper, so anything the command starts that
outlives its parent (a double-forked daemon, a sandbox whose keeper died) is
re-parented here instead of to init. After the command exits and SETTLE
seconds pass (time for a delayed attack to strike), our remaining children
are the leftovers: they are listed, then killed.
"""
import ctypes
import json
import os
import signal
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def children() -> list[dict]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                command = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if int(fields[1]) == os.getpid() and fields[0] != "Z":
            found.append({"pid": int(pid), "command": command})
    return found


def main() -> None:
    settle, command = float(sys.argv[1]), sys.argv[2:]
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    run = subprocess.run(command, capture_output=True, text=True)
    time.sleep(settle)
    leftovers = children()
    for process in leftovers:
        os.kill(process["pid"], signal.SIGKILL)
    print(json.dumps({"returncode": run.returncode, "stdout": run.stdout, "stderr": run.stderr,
                      "leftovers": leftovers}))


if __name__ == "__main__":
    main()
