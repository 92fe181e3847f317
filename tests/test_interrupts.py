"""Ctrl-C in `attnkit grade` and `attnkit check`: one line, what was written kept, no process left.

A terminal's Ctrl-C sends SIGINT to the whole foreground process group, so these tests do too: the
command runs in a session of its own and the signal goes to its group, at several moments.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from attnkit.class_grading import SCRATCH_PREFIX
from kit import REPO, reference_submission
from test_rerun import gradebook

pytestmark = pytest.mark.slow
STUDENTS = 12


def children_of(pids: set[int]) -> set[int]:
    """Every process whose parent is in `pids`, and theirs, down the tree."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, grew = set(pids), True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in found} - found
        found |= more
        grew = bool(more)
    return found - set(pids)


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


class Interrupted:
    """A command run until `ready(seconds since its first child process)` says so, then sent Ctrl-C (SIGINT
    to its process group, as a terminal does) or `signal_number` to the command alone (as `kill` does).

    What it printed, and which of the processes it started are still there afterwards.
    """

    def __init__(self, args: list[str], cwd: Path, ready, signal_number: int = signal.SIGINT):
        process = subprocess.Popen(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   start_new_session=True)
        self.pid = process.pid
        self.seen: set[int] = set()
        deadline, first_child = time.monotonic() + 300, None
        while time.monotonic() < deadline and process.poll() is None:
            self.seen |= children_of({process.pid})
            first_child = first_child or (time.monotonic() if self.seen else None)
            if first_child and ready(time.monotonic() - first_child):
                break
            time.sleep(0.02)
        assert process.poll() is None, "finished before it could be interrupted"
        if signal_number == signal.SIGINT:
            os.killpg(process.pid, signal.SIGINT)
        else:
            process.send_signal(signal_number)
        stdout, stderr = process.communicate(timeout=120)
        self.returncode, self.stdout, self.stderr = process.returncode, stdout.decode(), stderr.decode()
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and any(alive(pid) for pid in self.seen):
            time.sleep(0.1)
        self.left = [pid for pid in self.seen if alive(pid)]


@pytest.fixture(scope="module")
def a_class(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("class")
    for index in range(STUDENTS):
        reference_submission(folder / f"s{index:02d}")
    return folder


# the warm parent or the workers are importing torch (about a second: feedback/ is made before, for the
# hidden inputs' seed, but holds no student yet), or the first students are written
MOMENTS = {
    "warm-up": lambda out: lambda since: since > 0.25 and not any((out / "feedback").glob("*.json")),
    "grading": lambda out: lambda since: (out / "grades.csv").exists(),
}


SIGTERM = signal.SIGTERM  # what `timeout`, CI and job schedulers send: handled as Ctrl-C is, exit 143
STOPS = [("warm-up", 1, signal.SIGINT), ("grading", 1, signal.SIGINT), ("warm-up", 2, signal.SIGINT),
         ("grading", 2, signal.SIGINT), ("warm-up", 2, SIGTERM), ("grading", 1, SIGTERM), ("grading", 2, SIGTERM)]


@pytest.fixture(scope="module", params=STOPS,
                ids=lambda p: f"{p[0]}-jobs{p[1]}" + ("-sigterm" if p[2] == SIGTERM else ""))
def interrupted(request, a_class, tmp_path_factory):
    moment, jobs, signal_number = request.param
    out = tmp_path_factory.mktemp("out") / "grades"
    run = Interrupted(["attnkit", "grade", str(a_class), "--out", str(out), "--jobs", str(jobs)], REPO,
                      MOMENTS[moment](out), signal_number)
    run.signal_number = signal_number
    return run, out, moment, jobs


def test_ctrl_c_prints_one_line_and_exits_130(interrupted):
    run, out, moment, jobs = interrupted
    word = "terminated" if run.signal_number == SIGTERM else "interrupted"
    assert run.returncode == 128 + run.signal_number and run.stdout == ""
    assert len(run.stderr.splitlines()) == 1, run.stderr
    expected = f"{word} before any submission was graded" if moment == "warm-up" else "run the same command again"
    assert run.stderr.startswith(f"attnkit: {word}") and expected in run.stderr


def test_ctrl_c_removes_the_class_copy(interrupted):
    run, *_ = interrupted
    copies = [p for folder in ("/dev/shm", tempfile.gettempdir()) if os.path.isdir(folder)
              for p in Path(folder).glob(f"{SCRATCH_PREFIX}{run.pid}-*")]
    assert copies == []


def test_ctrl_c_keeps_a_consistent_gradebook(interrupted):
    run, out, moment, _ = interrupted
    if moment == "warm-up":
        assert not (out / "grades.csv").exists()
    else:
        assert 1 <= len(gradebook(out)) < STUDENTS


def test_ctrl_c_leaves_no_process_behind(interrupted):
    run, *_ = interrupted
    assert run.seen and run.left == []


def test_ctrl_c_in_check_during_warm_up_prints_one_line_and_leaves_nothing(tmp_path):
    for folder in ("graders", "solutions"):
        shutil.copytree(REPO / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "course.toml", tmp_path / "course.toml")
    reference_submission(tmp_path)
    run = Interrupted(["attnkit", "check"], tmp_path, lambda since: since > 0.3)
    assert run.returncode == 130 and run.stderr == "attnkit: interrupted\n", run.stderr
    assert run.seen and run.left == []
