"""The warm sandbox parent: import torch once, fork a sandbox per submission in milliseconds.

The parent (`python -I -m attnkit.sandbox.warm`, started with an empty
environment and cwd `/`) imports numpy, torch and the worker, never runs a
torch op (its thread pools would not survive a fork), and waits on a unix
socket. For each request the grader sends three pipe ends (requests in,
answers out, output out) and a lifeline; the parent forks a *keeper*, which
enters new namespaces and forks the *sandbox* (pid 1 of its namespace), and
answers with a pidfd of the keeper. The keeper waits for the sandbox to end
or for the lifeline to close (the grader is done with it, timed out, or
died) and then kills the sandbox, which takes its whole pid namespace with
it, before exiting itself: once the keeper is gone, so is everything the
submission started.
"""
from __future__ import annotations

import fcntl
import gc
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import traceback
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from attnkit.sandbox import isolation

READY_TIMEOUT = 120.0
KEEPER_GRACE = 5.0
MAX_MESSAGE = 1 << 16
NO_ISOLATION = "--no-isolation"
REQUESTS_FD, RESPONSES_FD = 3, 4  # in the sandbox; 0 is /dev/null, 1 and 2 the output pipe
FIRST_FREE_FD = 10


@dataclass(frozen=True)
class SpawnRequest:
    package_root: str
    memory_mb: int
    cpu_seconds: int


class SandboxProcess:
    """The grader's handle on one forked sandbox: its pipes, and a way to end it for sure."""

    def __init__(self, requests_w: int, responses_r: int, output_r: int, lifeline_w: int, keeper: int):
        self.requests_w, self.responses_r, self.output_r = requests_w, responses_r, output_r
        self._lifeline_w = lifeline_w
        self._keeper = keeper  # a pidfd: it can never name a recycled pid

    def kill(self) -> None:
        """End the sandbox and everything it started; return once all of it is gone."""
        if self._keeper < 0:
            return
        os.close(self._lifeline_w)
        ready, _, _ = select.select([self._keeper], [], [], KEEPER_GRACE)
        if not ready:
            signal.pidfd_send_signal(self._keeper, signal.SIGKILL)
            select.select([self._keeper], [], [], KEEPER_GRACE)
        for fd in (self._keeper, self.requests_w, self.responses_r, self.output_r):
            os.close(fd)
        self._keeper = -1


class WarmParent:
    """The grader's side of a warm parent process; `spawn` gives a new sandbox."""

    def __init__(self, *, isolate: bool = True) -> None:
        """`isolate=False` gives the fallback (rlimits only) even where namespaces work: for tests."""
        self._socket, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        command = [sys.executable, "-I", "-m", "attnkit.sandbox.warm", str(theirs.fileno())]
        self._process = subprocess.Popen(
            command + ([] if isolate else [NO_ISOLATION]),
            pass_fds=(theirs.fileno(),), env=_clean_environment(), cwd="/",
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True,
        )
        theirs.close()
        self._hello: dict[str, Any] | None = None

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def refusal(self) -> str | None:
        """Why this machine does not isolate sandboxes (None: fully isolated)."""
        return self._ready().get("refusal")

    def _ready(self) -> dict[str, Any]:
        if self._hello is None:
            self._socket.settimeout(READY_TIMEOUT)
            data = self._socket.recv(MAX_MESSAGE)
            self._socket.settimeout(None)
            if not data:
                raise RuntimeError(f"the warm sandbox parent failed to start (exit status {self._process.wait()})")
            self._hello = json.loads(data)
        return self._hello

    def spawn(self, request: SpawnRequest) -> SandboxProcess:
        """Fork a sandbox for one submission and hand back its pipes."""
        self._ready()
        requests_r, requests_w = os.pipe()
        responses_r, responses_w = os.pipe()
        output_r, output_w = os.pipe()
        lifeline_r, lifeline_w = os.pipe()
        theirs = [requests_r, responses_w, output_w, lifeline_r]
        ours = [requests_w, responses_r, output_r, lifeline_w]
        try:
            socket.send_fds(self._socket, [json.dumps(asdict(request)).encode()], theirs)
            _, fds, _, _ = socket.recv_fds(self._socket, MAX_MESSAGE, 1)
            if not fds:
                raise BrokenPipeError("the warm sandbox parent did not fork a sandbox")
        except OSError:
            for fd in ours:
                os.close(fd)
            raise
        finally:
            for fd in theirs:
                os.close(fd)
        return SandboxProcess(requests_w, responses_r, output_r, lifeline_w, fds[0])

    def close(self) -> None:
        """Stop the parent; sandboxes it forked die with it."""
        self._socket.close()
        try:
            self._process.wait(timeout=KEEPER_GRACE)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()


def _clean_environment() -> dict[str, str]:
    """Nothing of the grader's environment (tokens, paths) reaches a sandbox, not even via /proc/self/environ."""
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": isolation.SCRATCH, "LANG": "C.UTF-8",
            "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
            "PYTHONDONTWRITEBYTECODE": "1"}


# --- the parent process ----------------------------------------------------------------------------


def serve(control: socket.socket, isolate: bool) -> None:
    """Fork a keeper per request until the grader closes the socket (or is gone)."""
    refusal = isolation.probe() if isolate else "isolation turned off"
    new_root = tempfile.mkdtemp(prefix="attnkit-root-")
    roots = isolation.readable_roots()
    try:
        control.send(json.dumps({"refusal": refusal}).encode())
        while True:
            data, fds, _, _ = socket.recv_fds(control, MAX_MESSAGE, 4)
            if not data:
                return
            pid = os.fork()
            if pid == 0:
                _keeper(SpawnRequest(**json.loads(data)), fds, control, new_root if refusal is None else None, roots)
            for fd in fds:
                os.close(fd)
            pidfd = os.pidfd_open(pid)
            socket.send_fds(control, [b"{}"], [pidfd])
            os.close(pidfd)
            _reap()
    except (BrokenPipeError, ConnectionResetError):
        return  # the grader is gone, and its sandboxes with us
    finally:
        shutil.rmtree(new_root, ignore_errors=True)


def _reap() -> None:
    """Collect keepers that have ended, so none lingers as a zombie."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass


def _keeper(request: SpawnRequest, fds: list[int], control: socket.socket, new_root: str | None,
            roots: list[str]) -> None:
    """In the keeper: start the sandbox, then end it when it ends or when the lifeline closes."""
    try:
        isolation.die_with_parent()
        control.close()
        requests_r, responses_w, output_w, lifeline_r = fds
        if new_root is not None:
            isolation.enter_namespaces()
        sandbox_uid = isolation.UID_BASE + os.getpid()
        pid = os.fork()
        if pid == 0:
            os.close(lifeline_r)
            _sandbox(request, requests_r, responses_w, output_w, new_root, roots, sandbox_uid)
        for fd in (requests_r, responses_w, output_w):
            os.close(fd)
        _watch(pid, lifeline_r)
    finally:
        os._exit(0)


def _watch(pid: int, lifeline_r: int) -> None:
    """Wait for the sandbox to end by itself or the lifeline to close; either way reap it."""
    sandbox = os.pidfd_open(pid)
    ready, _, _ = select.select([sandbox, lifeline_r], [], [])
    if lifeline_r in ready:
        signal.pidfd_send_signal(sandbox, signal.SIGKILL)
    try:  # without a pid namespace, its process group is the best reach we have
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)  # pid 1 of its namespace: once reaped, every process it started is gone too


def _sandbox(request: SpawnRequest, requests_r: int, responses_w: int, output_w: int, new_root: str | None,
             roots: list[str], sandbox_uid: int) -> None:
    """In the sandbox: confine this process, then serve the grader's requests."""
    try:
        isolation.die_with_parent()
        os.setsid()
        _arrange_fds({0: os.open(os.devnull, os.O_RDONLY), 1: output_w, 2: output_w, REQUESTS_FD: requests_r,
                      RESPONSES_FD: responses_w})
        package_root = request.package_root
        if new_root is not None:
            isolation.build_root(new_root, package_root, roots, sandbox_uid)
            package_root = isolation.SUBMISSION
        limits = isolation.ResourceLimits(request.memory_mb, request.cpu_seconds)
        isolation.limit_resources(limits, isolated=new_root is not None)
        if new_root is not None:
            isolation.drop_privileges(sandbox_uid)
        _forget_the_course(roots)
        from attnkit.sandbox import worker

        worker.serve_forked(Path(package_root), os.fdopen(REQUESTS_FD, "rb"), os.fdopen(RESPONSES_FD, "wb"))
    except BaseException:  # a failure to set up shows in the captured output, not as a silent exit
        traceback.print_exc()
    finally:
        os._exit(0)


def _arrange_fds(wanted: dict[int, int]) -> None:
    """Give the sandbox exactly these fds (target: source) and close every other.

    stdin is /dev/null, so a stray input() fails at once instead of eating requests;
    the control socket above all must go: a sandbox must not order sandboxes.
    """
    high = {target: fcntl.fcntl(source, fcntl.F_DUPFD, FIRST_FREE_FD) for target, source in wanted.items()}
    for target, source in high.items():
        os.dup2(source, target)
    os.closerange(max(wanted) + 1, 1 << 16)


def _forget_the_course(roots: list[str]) -> None:
    """Drop import paths that lead back to the course repo (the editable install's)."""
    sys.path[:] = [p for p in sys.path if p.startswith(tuple(roots))]
    sys.meta_path[:] = [f for f in sys.meta_path if not type(f).__module__.startswith("__editable__")]
    sys.argv[:] = ["sandbox"]


def main() -> None:
    """The warm parent's entry point: argv[1] is the control socket's fd, then maybe --no-isolation."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the grader's to handle; we end when it closes us
    import numpy  # noqa: F401
    import torch  # noqa: F401

    from attnkit.sandbox import protocol, worker  # noqa: F401

    gc.freeze()  # what is imported now is never collected, so forked sandboxes share its pages longer
    serve(socket.socket(fileno=int(sys.argv[1])), isolate=NO_ISOLATION not in sys.argv[2:])


if __name__ == "__main__":
    main()
