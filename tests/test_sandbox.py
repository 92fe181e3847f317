"""The sandbox, one promise a test: what student code can and cannot do, and how it ends.

Each test runs one small function of a probe package in a real sandbox and reads back plain numbers
or a status. The isolation tests need Linux namespaces as root and are skipped, with the reason, where
the machine does not allow them; the limits tests also run on both fallbacks (a fork from a warm
parent without isolation, and a fresh process a submission, as on macOS).
"""
from __future__ import annotations

import os
import signal
import socket
import textwrap
from pathlib import Path

import numpy as np
import pytest

from attnkit.grading.attempt import call
from attnkit.sandbox import isolation, runner
from attnkit.sandbox.runner import Limits, SandboxedSubmission
from attnkit.sandbox.warm import SpawnRequest, WarmParent
from kit import COURSE

REFUSAL = isolation.probe()
isolated = pytest.mark.skipif(REFUSAL is not None, reason=f"sandbox not isolated here: {REFUSAL}")
LIMITS = Limits(call_timeout=4.0, memory_mb=1200, output_kb=4)  # 4 s: a fresh process imports torch first
SECRET = "ATTNKIT_TEST_SECRET"

PROBE = '''
import os, socket, subprocess, sys, time
import torch

def numbers(*values):
    return torch.tensor([float(v) for v in values])

def double(x):
    return x * 2

def uid(x):
    return numbers(os.getuid(), os.geteuid())

def visible_processes(x):
    return numbers(len([p for p in os.listdir("/proc") if p.isdigit()]))

def read(x):
    open(PATH).read()
    return x

def write(x):
    with open(PATH, "w") as stream:
        stream.write("overwritten")
    return x

def connect(x):
    socket.create_connection(("127.0.0.1", PORT), timeout=1).close()
    return x

def environment(x):
    return numbers(SECRET in os.environ, any(SECRET in str(v) for v in os.environ.values()))

def loop(x):
    while True:
        pass

def flood(x):
    while True:
        print("spam" * 1000)

def ask(x):
    return numbers(float(input()))

def hoard(x):
    return bytearray(4 << 30)

def detach(x):
    subprocess.Popen(["sleep", "60"], start_new_session=True)
    if os.fork() == 0:
        time.sleep(60)
        os._exit(0)
    return numbers(os.getuid())
'''


@pytest.fixture(scope="module")
def unisolated_parent():
    parent = WarmParent(isolate=False)
    yield parent
    parent.close()


@pytest.fixture(params=["default", "unisolated-fork", "fresh-process"])
def launcher(request, unisolated_parent):
    """How the sandbox process is started: as on this machine, or as in either fallback."""
    if request.param == "unisolated-fork":
        return lambda root, limits: unisolated_parent.spawn(
            SpawnRequest(str(root), limits.memory_mb, limits.cpu_seconds))
    return runner._FreshProcess if request.param == "fresh-process" else None


@pytest.fixture
def probe(tmp_path) -> Path:
    """A submission root whose `exercises.probe` module holds the functions above."""
    package = tmp_path / "submission" / "exercises"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    return package.parent


def write_probe(root: Path, **constants) -> None:
    """The probe module, with the constants its functions read (a path, a port) set at its top."""
    constants = {"PATH": "", "PORT": 0, "SECRET": SECRET, **constants}
    header = "".join(f"{name} = {value!r}\n" for name, value in constants.items())
    (root / "exercises" / "probe.py").write_text(header + textwrap.dedent(PROBE))


def run(root: Path, function: str, launcher=None, **constants) -> dict:
    write_probe(root, **constants)
    with SandboxedSubmission(root, LIMITS, launcher) as sandbox:
        return sandbox.run(call("probe", function, np.ones(3)))


def test_a_request_comes_back_as_plain_numbers(probe, launcher):
    result = run(probe, "double", launcher)
    assert result.status == "ok"
    assert isinstance(result.returned.array, np.ndarray) and result.returned.array.tolist() == [2.0, 2.0, 2.0]


@isolated
def test_student_code_runs_as_an_unprivileged_uid_of_its_own(probe):
    real, effective = run(probe, "uid").returned.array
    assert real == effective >= isolation.UID_BASE


@isolated
def test_student_code_sees_no_process_but_its_own(probe):
    assert run(probe, "visible_processes").returned.array.tolist() == [1.0]


@isolated
@pytest.mark.parametrize("path", [COURSE.root / "course.toml", COURSE.solutions_dir / "softmax.py",
                                  COURSE.graders_dir / "test_softmax.py"])
def test_student_code_cannot_read_the_course(probe, path):
    result = run(probe, "read", PATH=str(path))
    assert result.status == "crash" and result.type == "FileNotFoundError"


@isolated
def test_student_code_cannot_write_outside_its_scratch_folder(probe, tmp_path):
    target = tmp_path / "grades.csv"
    target.write_text("honest")
    for path in (target, probe / "exercises" / "probe.py"):
        assert run(probe, "write", PATH=str(path)).status == "crash"
    assert target.read_text() == "honest"
    assert run(probe, "write", PATH="/tmp/notes.txt").status == "ok"


@isolated
def test_student_code_has_no_network(probe):
    with socket.create_server(("127.0.0.1", 0)) as server:
        result = run(probe, "connect", PORT=server.getsockname()[1])
    assert result.status == "crash"


def test_student_code_does_not_see_the_graders_environment(probe, launcher, monkeypatch):
    monkeypatch.setenv(SECRET, "hunter2")
    assert run(probe, "environment", launcher).returned.array.tolist() == [0.0, 0.0]


def test_an_endless_call_times_out_and_the_next_module_gets_a_fresh_process(probe, launcher):
    write_probe(probe)
    (probe / "exercises" / "other.py").write_text("def double(x):\n    return x * 2\n")
    with SandboxedSubmission(probe, LIMITS, launcher) as sandbox:
        assert sandbox.run(call("probe", "loop", np.ones(3))).status == "timeout"
        assert sandbox.run(call("probe", "double", np.ones(3))).status == "timeout"
        assert sandbox.run(call("other", "double", np.ones(3))).status == "ok"


def test_output_is_capped_and_a_flood_fails_the_call(probe, launcher):
    write_probe(probe)
    with SandboxedSubmission(probe, LIMITS, launcher) as sandbox:
        result = sandbox.run(call("probe", "flood", np.ones(3)))
        assert result.status == "crash" and result.type == "OutputLimitExceeded"
        assert len(sandbox.captured_output.encode()) == LIMITS.output_kb * 1024


def test_input_fails_at_once_instead_of_reading_the_graders_requests(probe):
    result = run(probe, "ask")
    assert result.status == "crash" and result.type == "EOFError"


def test_memory_is_limited(probe, launcher):
    result = run(probe, "hoard", launcher)
    assert result.status == "crash" and result.type == "MemoryError"


@isolated
def test_nothing_the_student_started_outlives_close(probe):
    sandbox_uid = int(run(probe, "detach").returned.array[0])
    assert sandbox_uid not in process_uids()


def test_a_dead_warm_parent_is_replaced_without_blaming_the_student(probe):
    assert run(probe, "double").status == "ok"
    os.kill(runner.warm_parent().pid, signal.SIGKILL)
    assert run(probe, "double").status == "ok"


def process_uids() -> set[int]:
    uids = set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            uids.add(os.stat(f"/proc/{pid}").st_uid)
        except OSError:
            pass
    return uids


def test_a_parent_told_not_to_isolate_says_so(unisolated_parent):
    assert unisolated_parent.refusal == "isolation turned off"


def test_an_unisolated_sandbox_warns_once_saying_what_is_not_enforced(monkeypatch, capsys):
    monkeypatch.delenv(runner.QUIET_ENV, raising=False)
    runner.warn_unisolated("namespaces need root")
    runner.warn_unisolated("namespaces need root")
    warning = capsys.readouterr().err
    assert warning.count("warning") == 1 and "solutions/" in warning and "network" in warning
