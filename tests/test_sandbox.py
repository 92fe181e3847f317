"""The sandbox, one promise per test: what student code can and cannot do, and how it ends.

Each test runs one small function of a probe package in a real sandbox and reads back plain numbers
or a status. The isolation tests need Linux namespaces as root and are skipped, with the reason, where
the machine does not allow them; the limits tests also run on both fallbacks (a fork from a warm
parent without isolation, and a fresh process a submission, as on macOS).
"""
from __future__ import annotations

import ctypes
import errno
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from attnkit.grading.attempt import call, constants
from attnkit.sandbox import cgroups, isolation, parent, runner, seccomp
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


def open_sockets(x):
    """How many kinds of socket this code could open: an abstract unix one, a TCP one, an io_uring."""
    import ctypes
    opened = 0
    for family, kind in ((socket.AF_UNIX, socket.SOCK_STREAM), (socket.AF_INET, socket.SOCK_STREAM),
                         (socket.AF_INET6, socket.SOCK_DGRAM), (socket.AF_NETLINK, socket.SOCK_RAW)):
        try:
            socket.socket(family, kind).close()
            opened += 1
        except OSError:
            pass
    params = ctypes.create_string_buffer(120)
    ring = ctypes.CDLL(None, use_errno=True).syscall(425, 8, params)  # io_uring_setup
    return numbers(opened, ring >= 0)


def listen_abstract(x):
    """Bind an abstract unix socket another sandbox could find (none can, when sockets are refused)."""
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind("\\0attnkit-test-channel")
    server.listen()
    return numbers(1)
    return x

CHANNEL = "\\0attnkit-test-pair"
SHARED_FILE = "/usr/bin/env"  # a file every sandbox can read

def channel(role):
    """Open one kind of channel to another sandbox (each way raises where it is refused): `role` 0 listens
    (a socketpair end bound to an abstract name; an exclusive lock held; a watch on a shared file), 1 talks."""
    import ctypes, fcntl
    kind = PATH
    if kind == "socketpair":
        mine, _ = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
        if role == 0:
            mine.connect(b"")  # AF_UNSPEC: disconnected, free to be bound
            mine.bind(CHANNEL)
            mine.settimeout(3)
            return mine.recv(16)
        mine.sendto(b"hello", CHANNEL)
        return b"sent"
    stream = open(SHARED_FILE, "rb")
    if kind == "flock":
        fcntl.flock(stream, fcntl.LOCK_EX | (0 if role == 0 else fcntl.LOCK_NB))
    elif kind == "record-lock":
        fcntl.lockf(stream, fcntl.LOCK_SH | (0 if role == 0 else fcntl.LOCK_NB))
    elif kind == "ofd-lock":
        fcntl.fcntl(stream, 37, bytes(32))  # F_OFD_SETLK
    elif kind == "inotify":
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.inotify_init1(0) < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
    if role == 0:
        time.sleep(1.5)
    return b"held"

def keep(x):
    sys.kept = getattr(sys, "kept", 0) + 1  # state a hidden check could leave for a later check
    return numbers(sys.kept)

def listen(x):
    return numbers(len(channel(0)))

def talk(x):
    return numbers(len(channel(1)))

def environment(x):
    return numbers(SECRET in os.environ, any(SECRET in str(v) for v in os.environ.values()))

def loop(x):
    while True:
        pass

def flood(x):
    while True:
        print("spam" * 1000)

def say(x):
    print("asked", x.numel())
    return x

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


@isolated
@pytest.mark.skipif(os.uname().machine != "x86_64", reason="the probe calls io_uring_setup by its x86_64 number")
def test_student_code_can_open_no_socket_of_any_kind(probe):
    """Sandboxes share the warm parent's empty network namespace: no socket, so no channel between them."""
    assert run(probe, "open_sockets").returned.array.tolist() == [0.0, 0.0]


@isolated
def test_an_abstract_socket_cannot_be_bound_to_reach_another_sandbox(probe):
    result = run(probe, "listen_abstract")
    assert result.status == "crash" and result.type == "PermissionError"


def test_an_exercise_that_refuses_what_its_process_does_not_gets_a_fresh_one(probe):
    """A refusal is installed before any of the student's code runs, so it needs a process of its own; an
    exercise that refuses nothing keeps the process it finds (what the code kept there is still there)."""
    write_probe(probe)
    with SandboxedSubmission(probe, LIMITS) as sandbox:
        kept = []
        for refused in [(), ("softmax",), ("softmax",), ()]:
            sandbox.begin_exercise(refused)
            kept.append(sandbox.run(call("probe", "keep", np.ones(3))).returned.array[0])
    assert kept == [1.0, 1.0, 2.0, 3.0]


SHARED_CHANNELS = ["socketpair", "flock", "record-lock", "ofd-lock", "inotify"]


@isolated
@pytest.mark.parametrize("kind", SHARED_CHANNELS)
def test_two_sandboxes_at_once_share_no_channel(tmp_path, kind):
    """A listener and a talker, each in its own sandbox at the same time: the kernel object either would
    use (a socketpair's end bound to an abstract name, a lock or a watch on a file both can read) is refused
    to both, so neither gets as far as a byte."""
    import concurrent.futures

    roots = []
    for role in ("listener", "talker"):
        (tmp_path / role / "exercises").mkdir(parents=True)
        (tmp_path / role / "exercises" / "__init__.py").write_text("")
        write_probe(tmp_path / role, PATH=kind)
        roots.append(tmp_path / role)

    def grade(root: Path, function: str):
        with SandboxedSubmission(root, LIMITS) as sandbox:
            return sandbox.run(call("probe", function, np.ones(3)))

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        results = list(pool.map(grade, roots, ["listen", "talk"]))
    assert [(r.status, r.type) for r in results] == [("crash", "PermissionError")] * 2, results


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


def test_what_a_call_prints_is_captured_by_the_time_it_returns(probe, launcher):
    """The feedback keeps what was printed before the hidden checks: each call's output must be read by its end
    (the worker flushes before it replies, and the runner reads whatever is ready with the reply)."""
    write_probe(probe)
    with SandboxedSubmission(probe, LIMITS, launcher) as sandbox:
        for size in range(1, 21):
            assert sandbox.run(call("probe", "say", np.ones(size))).status == "ok"
            assert sandbox.captured_output.splitlines()[-1] == f"asked {size}"


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
    os.kill(parent.warm_parent().pid, signal.SIGKILL)
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
    monkeypatch.setattr(parent, "_said", set())
    parent.warn_unenforced("namespaces need root", "cgroups need root")
    parent.warn_unenforced("namespaces need root", "cgroups need root")
    warning = capsys.readouterr().err
    assert warning.count("warning") == 1 and "\n" not in warning.strip()
    assert "own" in warning and "time budget" in warning and "no sockets" in warning and "namespace" in warning
    assert ("world-readable" if os.geteuid() == 0 else "solutions/") in warning  # what it can still read
    assert "per process only" in warning and "outlive grading" in warning


# --- whole-submission limits: memory and time across a submission, keyrings, nothing left running -----

LIMITS_PROBE = '''
import ctypes, os, platform, time
import torch

KEYCTL = {"x86_64": 250, "aarch64": 219}[platform.machine()]
ADD_KEY = {"x86_64": 248, "aarch64": 217}[platform.machine()]
KEYRINGS = {"session": -3, "user": -4, "user-session": -5}
libc = ctypes.CDLL(None, use_errno=True)

def numbers(*values):
    return torch.tensor([float(v) for v in values])

def double(x):
    return x * 2

def nap(x):
    time.sleep(NAP)
    return x

def nap_and_exit(x):
    time.sleep(NAP / 40)
    os._exit(0)

def hoard_memory_files(x):
    files = []
    for count in range(1, 200):
        files.append(os.memfd_create("hoard"))
        for _ in range(15):
            os.write(files[-1], bytes(1 << 20))
        print(f"held {count * 15} MB", flush=True)
    return numbers(len(files))

def hoard_in_children(x):
    children = []
    for _ in range(8):
        pid = os.fork()
        if pid == 0:
            hoard = bytearray(b"x") * (250 << 20)
            time.sleep(60)
            os._exit(0)
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)
    return numbers(len(children))

def grab_past_the_limit(x):
    return numbers(len(bytearray(4 << 30)))

def grow_a_memory_file(x):
    memory_file = os.memfd_create("grow")
    for size in range(1, 33):
        os.write(memory_file, bytes(1 << 20))
        print(f"wrote {size} MB", flush=True)
    return x

def persistent_keyring():
    return libc.syscall(KEYCTL, 22, -1, KEYRINGS["session"])

def add_keys(x):
    rings = {**KEYRINGS, "persistent": persistent_keyring()}
    added = [libc.syscall(ADD_KEY, b"user", b"attnkit-test", b"secret", 6, ring) for ring in rings.values()]
    return numbers(os.getuid(), *[serial if serial > 0 else -ctypes.get_errno() for serial in added])

def find_keys(x):
    found = []
    for ring in [*KEYRINGS.values(), persistent_keyring()]:
        serial = libc.syscall(KEYCTL, 10, ring, b"user", b"attnkit-test", 0)
        found.append(serial if serial > 0 else -ctypes.get_errno())
    return numbers(os.getuid(), *found)

def daemonize(x):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            time.sleep(60)
        os._exit(0)
    time.sleep(0.1)
    return numbers(os.getuid())

def loop(x):
    while True:
        pass
'''
LIBC = ctypes.CDLL(None, use_errno=True)
KEY_SPEC_SESSION_KEYRING, KEYCTL_INVALIDATE = -3, 21
DRIVER = """
import sys
from pathlib import Path
import numpy as np
from attnkit.grading.attempt import call
from attnkit.sandbox import parent
from attnkit.sandbox.runner import Limits, SandboxedSubmission
try:
    with SandboxedSubmission(Path(sys.argv[1]), Limits(call_timeout=60.0)) as sandbox:
        uid = int(sandbox.run(call("limits_probe", "daemonize", np.ones(3))).returned.array[0])
        print(parent.warm_parent().pid, uid, flush=True)
        sandbox.run(call("limits_probe", "loop", np.ones(3)))
except KeyboardInterrupt:
    print("interrupted", file=sys.stderr)
    sys.exit(130)
"""


@pytest.fixture
def limits_probe(tmp_path) -> Path:
    """A submission whose `exercises.limits_probe` holds the functions above (`NAP` seconds a nap)."""
    package = tmp_path / "submission" / "exercises"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "limits_probe.py").write_text("NAP = 0.4\n" + textwrap.dedent(LIMITS_PROBE))
    return package.parent


@pytest.fixture
def whole_limits():
    """Skip unless this machine gives each submission a cgroup (Linux, root, memory and pids controllers)."""
    refusal = parent.warm_parent().cgroup_refusal
    if refusal is not None:
        pytest.skip(f"no whole-submission limits here: {refusal}")


@pytest.fixture(params=["unisolated-fork", "fresh-process"])
def fallback(request, unisolated_parent):
    """A sandbox as started where there are no namespaces and no cgroups: rlimits only."""
    if request.param == "fresh-process":
        return runner._FreshProcess
    return lambda root, limits: unisolated_parent.spawn(SpawnRequest(str(root), limits.memory_mb, limits.cpu_seconds))


def probe_call(function: str):
    return call("limits_probe", function, np.ones(3))


def add_key_to_my_session_keyring() -> int:
    add_key = seccomp.KEYRING_CALLS[os.uname().machine][0]
    serial = LIBC.syscall(add_key, b"user", b"attnkit-test", b"secret", 6, KEY_SPEC_SESSION_KEYRING)
    assert serial > 0, os.strerror(ctypes.get_errno())
    return serial


def held_megabytes(output: str) -> int:
    return max(int(line.split()[1]) for line in output.splitlines() if line.startswith("held "))


def test_memory_files_beyond_the_limit_end_the_submission_as_that_calls_failure(limits_probe, whole_limits):
    # a call timeout far above the seconds that writing 1.2 GB takes, even on a busy machine: the memory
    # limit, not the clock, must be what ends it (a 4 s timeout came first once on a slow CI run)
    with SandboxedSubmission(limits_probe, replace(LIMITS, call_timeout=30.0)) as sandbox:
        result = sandbox.run(probe_call("hoard_memory_files"))
        assert result.status == "exited" and "ran out of memory" in result.message
        assert held_megabytes(sandbox.captured_output) < LIMITS.memory_mb
        assert sandbox.run(probe_call("double")).status == "ok"


def test_memory_held_by_forked_children_ends_the_submission(limits_probe, whole_limits):
    started = time.monotonic()
    with SandboxedSubmission(limits_probe, Limits(call_timeout=30.0, memory_mb=1200)) as sandbox:
        result = sandbox.run(probe_call("hoard_in_children"))
    assert result.status == "exited" and "ran out of memory" in result.message
    assert time.monotonic() - started < 20  # ended by the memory limit, not by the children's 60 s nap or a timeout


def test_the_time_budget_stops_a_sleeper_and_every_later_call_times_out_at_once(limits_probe):
    budget = Limits(call_timeout=1.0, time_budget=1.5)
    results, spans = [], []
    with SandboxedSubmission(limits_probe, budget) as sandbox:
        for _ in range(8):  # 8 naps of 0.4 s, each well within the call timeout: 3.2 s without a budget
            started = time.monotonic()
            results.append(sandbox.run(probe_call("nap")))
            spans.append(time.monotonic() - started)
    statuses = [result.status for result in results]
    first_timeout = statuses.index("timeout")
    assert 2 <= first_timeout <= 3 and set(statuses[first_timeout:]) == {"timeout"}
    assert all("time budget of 1.5 s is spent" in r.message for r in results[first_timeout:])
    assert sum(spans) < budget.time_budget + 0.5
    assert max(spans[first_timeout + 1:]) < 0.05


def test_the_time_budget_counts_starting_each_process_too(limits_probe):
    """A submission that ends its own process on every call makes the grader start one a call: that time
    is the submission's too, so all its calls together still end within the budget (a start takes some
    0.02 s here, and a third of the time twenty short calls took was once charged to nobody)."""
    budget = Limits(call_timeout=1.0, time_budget=1.0)
    with SandboxedSubmission(limits_probe, budget) as sandbox:  # the sandboxes' parent started: not timed
        assert sandbox.run(probe_call("double")).status == "ok"
    with SandboxedSubmission(limits_probe, budget) as sandbox:
        started = time.monotonic()
        statuses = [sandbox.run(probe_call("nap_and_exit")).status for _ in range(100)]
        spent = time.monotonic() - started
    assert statuses[0] == "exited" and statuses[-1] == "timeout"
    assert spent < budget.time_budget + 0.15


@isolated
def test_a_key_in_the_graders_session_keyring_is_out_of_reach(limits_probe):
    grader_key = add_key_to_my_session_keyring()  # the warm parent inherits this session keyring
    try:
        with SandboxedSubmission(limits_probe, LIMITS) as sandbox:
            found = sandbox.run(probe_call("find_keys")).returned.array[1:]
    finally:
        seccomp.keyctl(KEYCTL_INVALIDATE, grader_key)
    assert all(serial < 0 for serial in found)


@isolated
def test_student_code_can_neither_leave_nor_find_keys_in_the_kernel_keyring(limits_probe):
    with SandboxedSubmission(limits_probe, LIMITS) as sandbox:
        uid, *added = sandbox.run(probe_call("add_keys")).returned.array
        _, *found = sandbox.run(probe_call("find_keys")).returned.array
    assert uid >= isolation.UID_BASE
    assert added == [-errno.EPERM] * 4 and found == [-errno.EPERM] * 4  # session, user, user-session, persistent


@isolated
def test_nothing_is_left_of_a_double_forked_setsid_child(limits_probe):
    with SandboxedSubmission(limits_probe, LIMITS) as sandbox:
        sandbox_uid = int(sandbox.run(probe_call("daemonize")).returned.array[0])
        assert sandbox_uid in process_uids()
    assert sandbox_uid not in process_uids()


def test_the_fallback_without_isolation_still_applies_the_rlimits(limits_probe, fallback):
    with SandboxedSubmission(limits_probe, LIMITS, fallback) as sandbox:
        grown = sandbox.run(probe_call("grow_a_memory_file"))
        assert grown.status == "crash" and grown.type == "OSError"
        assert sandbox.captured_output.splitlines()[-1] == f"wrote {isolation.MAX_FILE_MB} MB"
        grabbed = sandbox.run(probe_call("grab_past_the_limit"))
        assert grabbed.status == "crash" and grabbed.type == "MemoryError"


@pytest.mark.slow
@isolated
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "kill-9"])
def test_nothing_is_left_when_the_grader_is_interrupted_or_killed(limits_probe, signum):
    driver = subprocess.Popen([sys.executable, "-c", DRIVER, str(limits_probe)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, start_new_session=True)
    assert select.select([driver.stdout], [], [], 60)[0], driver.stderr.read()
    warm_pid, sandbox_uid = map(int, driver.stdout.readline().split())
    time.sleep(0.3)  # the sandbox is in its endless loop, its detached child asleep
    os.killpg(driver.pid, signum)  # as Ctrl-C does: the grader's whole process group
    _, errors = driver.communicate(timeout=30)
    assert eventually(lambda: sandbox_uid not in process_uids() and not running(warm_pid))
    assert cgroup_folders(f"{cgroups.TREE_PREFIX}{warm_pid}") == []
    if signum == signal.SIGINT:
        assert errors == "interrupted\n"  # not a word from the warm parent


@pytest.mark.slow
@isolated
def test_a_sandbox_dies_with_its_warm_parent(limits_probe):
    parent = WarmParent()

    def launcher(root, limits):
        return parent.spawn(SpawnRequest(str(root), limits.memory_mb, limits.cpu_seconds))

    with SandboxedSubmission(limits_probe, LIMITS, launcher) as sandbox:
        sandbox_uid = int(sandbox.run(probe_call("daemonize")).returned.array[0])
        os.kill(parent.pid, signal.SIGKILL)  # no clean-up of its own: the sandbox, idle, must die by itself
        assert eventually(lambda: sandbox_uid not in process_uids())
    parent.close()


@pytest.mark.slow
@isolated
def test_what_a_killed_warm_parent_left_is_removed_by_the_next(whole_limits):
    killed = WarmParent()
    assert killed.cgroup_refusal is None
    cgroup_name, template = f"{cgroups.TREE_PREFIX}{killed.pid}", f"{isolation.TEMPLATE_PREFIX}{killed.pid}-*"
    os.kill(killed.pid, signal.SIGKILL)
    killed.close()
    assert cgroup_folders(cgroup_name) and list(Path(tempfile.gettempdir()).glob(template))
    successor = WarmParent()
    try:
        assert successor.cgroup_refusal is None
        assert cgroup_folders(cgroup_name) == [] and list(Path(tempfile.gettempdir()).glob(template)) == []
    finally:
        successor.close()


def eventually(condition, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)
    return condition()


def running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def cgroup_folders(name: str) -> list[str]:
    return [folder for folder, _, _ in os.walk("/sys/fs/cgroup") if os.path.basename(folder) == name]


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root, as a container without namespaces gives")
def test_without_namespaces_but_as_root_student_code_still_runs_as_its_own_uid(tmp_path, unisolated_parent):
    """A container that refuses namespaces (Gradescope's, say) runs the grader as root: the fallback still
    gives student code a uid of its own, so a root-only file (the course's solutions) stays out of reach."""
    secret = tmp_path / "solutions.py"
    secret.write_text("the reference")
    secret.chmod(0o600)

    def launch(root, limits):
        return unisolated_parent.spawn(SpawnRequest(str(root), limits.memory_mb, limits.cpu_seconds))

    for name in ("s1", "s2"):
        (tmp_path / name / "exercises").mkdir(parents=True)
        (tmp_path / name / "exercises" / "__init__.py").write_text("")
    real, effective = run(tmp_path / "s1", "uid", launch).returned.array
    assert real == effective >= isolation.UID_BASE
    result = run(tmp_path / "s2", "read", launch, PATH=str(secret))
    assert result.status == "crash" and result.type == "PermissionError"


@pytest.mark.slow
def test_a_shared_warm_parent_serves_each_grader_and_ends_when_the_last_lets_go(probe):
    """A class's grading workers share one parent, each through its own socket: one closing leaves the
    others served; once all have, the parent ends and leaves nothing behind."""
    write_probe(probe)
    parent = WarmParent(sharers=1)
    other = WarmParent.joined(os.dup(parent.shared_sockets[0].fileno()))

    def doubled(client: WarmParent) -> list[float]:
        def launch(root, limits):
            return client.spawn(SpawnRequest(str(root), limits.memory_mb, limits.cpu_seconds))

        with SandboxedSubmission(probe, LIMITS, launch) as sandbox:
            return list(sandbox.run(call("probe", "double", np.ones(2))).returned.array)

    assert doubled(parent) == doubled(other) == [2.0, 2.0]
    pid = parent.pid
    parent._socket.close()  # the first grader lets go; the other still holds its socket
    parent.shared_sockets[0].close()
    assert doubled(other) == [2.0, 2.0] and running(pid)
    other.close()
    assert eventually(lambda: not running(pid))
    parent.close()
    assert cgroup_folders(f"{cgroups.TREE_PREFIX}{pid}") == []


def huge_pages_refusal() -> str | None:
    """Why this machine cannot back a heap with huge pages on request (None: it can)."""
    try:
        setting = Path("/sys/kernel/mm/transparent_hugepage/enabled").read_text()
    except OSError:
        return "no transparent huge pages"
    release = tuple(int(n) for n in os.uname().release.split(".")[:2] if n.isdigit())
    return "transparent huge pages are off" if "[never]" in setting else \
        "MADV_COLLAPSE needs Linux 6.1" if release < (6, 1) else None


@pytest.mark.slow
@pytest.mark.skipif(huge_pages_refusal() is not None, reason=str(huge_pages_refusal()))
def test_a_warm_parent_for_a_class_holds_its_heap_in_huge_pages(probe):
    """Each fork then copies a few page-table entries a 2 MB page instead of one a 4 KB page."""
    write_probe(probe)
    parent = WarmParent(huge_pages=True)
    try:
        launch = lambda root, limits: parent.spawn(SpawnRequest(str(root), limits.memory_mb, limits.cpu_seconds))  # noqa: E731
        with SandboxedSubmission(probe, LIMITS, launch) as sandbox:
            assert sandbox.run(call("probe", "double", np.ones(2))).returned.array.tolist() == [2.0, 2.0]
        rollup = Path(f"/proc/{parent.pid}/smaps_rollup").read_text()
        huge_kb = int(next(line for line in rollup.splitlines() if line.startswith("AnonHugePages:")).split()[1])
        assert huge_kb >= 64 * 1024
    finally:
        parent.close()


READS = '''
reads = 0


def __getattr__(name):
    global reads
    reads += 1
    return float(reads)
'''


@pytest.mark.slow
def test_a_modules_constants_are_read_once_a_process(tmp_path):
    """Checks that each need one table get the first reply again; a new process reads afresh."""
    package = tmp_path / "exercises"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "table.py").write_text(textwrap.dedent(READS))
    (package / "other.py").write_text("import time\n\ndef hang(x):\n    while True:\n        time.sleep(0.05)\n")
    read = constants("table", ["X"])
    with SandboxedSubmission(tmp_path, replace(LIMITS, call_timeout=1.0)) as sandbox:
        first, again = sandbox.run(read), sandbox.run(read)
        assert sandbox.run(call("other", "hang", np.ones(1))).status == "timeout"  # the process ends
        fresh = sandbox.run(read)
        sandbox.close()
        assert sandbox.run(read) is not fresh  # closing forgets what the process read
    assert [r.constants["X"].array.tolist() for r in (first, again, fresh)] == [[1.0], [1.0], [1.0]]
