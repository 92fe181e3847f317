"""The grader's side of a sandboxed submission: send requests, enforce limits.

One `SandboxedSubmission` serves one student. Its process is started lazily and
started again after it dies, so one exercise's infinite loop or `os._exit`
costs that exercise, not the whole submission. On Linux the process is forked
from a warm parent that has already imported torch (`warm`) and locked down
(`isolation`); elsewhere it is a fresh `python -m attnkit.sandbox.worker`
with rlimits only, and one warning says what is not enforced.
"""
from __future__ import annotations

import atexit
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol

from attnkit.sandbox import isolation, protocol

QUIET_ENV = "ATTNKIT_SANDBOX_WARNED"


@dataclass(frozen=True)
class Limits:
    """What one submission may use. Defaults live in course.toml's [settings]."""

    call_timeout: float = 10.0
    memory_mb: int = 2048
    output_kb: int = 64

    @property
    def cpu_seconds(self) -> int:
        """CPU time for the whole submission: a backstop behind the wall-clock timeout of each call."""
        return int(self.call_timeout * 30) + 1


class SandboxProcess(Protocol):
    """A running sandbox: where to write requests, read answers and output, and how to end it all."""

    requests_w: int
    responses_r: int
    output_r: int

    def kill(self) -> None: ...


Launcher = Callable[[Path, Limits], SandboxProcess]


class SandboxedSubmission:
    """Runs requests against one submission's `exercises` package in a child process."""

    def __init__(self, package_root: Path, limits: Limits = Limits(), launcher: Launcher | None = None):
        self.package_root = Path(package_root).resolve()
        self.limits = limits
        self.output = bytearray()
        self._launch = launcher or default_launcher()
        self._process: SandboxProcess | None = None
        self._hung_modules: set[str] = set()

    def __enter__(self) -> "SandboxedSubmission":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def captured_output(self) -> str:
        """What the student's code printed, capped at the output limit."""
        return self.output.decode("utf-8", errors="replace")

    def request(self, request: dict[str, Any]) -> dict[str, Any]:
        """Run one request; timeouts, deaths and floods become statuses, never exceptions."""
        module = request.get("module", "")
        if module in self._hung_modules:
            return _status("timeout", f"an earlier call into {module}.py ran out of time")
        try:
            if self._process is None:
                self._process = self._launch(self.package_root, self.limits)
                self._pending = bytearray()
            return self._exchange(protocol.dumps(request))
        except TimeoutError:
            self._hung_modules.add(module)
            self._kill()
            return _status("timeout", f"no answer within {self.limits.call_timeout:g} s")
        except OutputFlood:
            self._kill()
            return _status("crash", f"printed more than {self.limits.output_kb} KiB; the rest was cut off",
                           "OutputLimitExceeded")
        except (EOFError, OSError):
            self._kill()
            return _status("exited", "the process running your code ended before answering "
                                     "(os._exit, a fatal signal such as a segfault, or a resource limit)")
        except protocol.ProtocolError as error:
            self._kill()
            return _status("exited", f"the process running your code answered something unreadable ({error})")

    def close(self) -> None:
        """Stop the process and everything it started."""
        self._kill()

    def _exchange(self, message: bytes) -> dict[str, Any]:
        process = self._process
        deadline = time.monotonic() + self.limits.call_timeout
        outgoing = memoryview(message)
        selector = selectors.DefaultSelector()
        os.set_blocking(process.requests_w, False)
        selector.register(process.requests_w, selectors.EVENT_WRITE, "requests")
        selector.register(process.responses_r, selectors.EVENT_READ, "responses")
        selector.register(process.output_r, selectors.EVENT_READ, "output")
        try:
            while True:
                reply = self._complete_reply()
                if reply is not None:
                    return reply
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError
                for key, _ in selector.select(remaining):
                    if key.data == "requests":
                        outgoing = outgoing[os.write(process.requests_w, outgoing):]
                        if not outgoing:
                            selector.unregister(process.requests_w)
                    elif key.data == "output":
                        self._drain_output(selector)
                    else:
                        chunk = os.read(process.responses_r, 1 << 16)
                        if not chunk:
                            raise EOFError("no answer")
                        self._pending += chunk
        finally:
            selector.close()

    def _complete_reply(self) -> dict[str, Any] | None:
        header = protocol.HEADER.size
        if len(self._pending) < header:
            return None
        (length,) = protocol.HEADER.unpack(self._pending[:header])
        if length > protocol.MAX_MESSAGE_BYTES:
            raise protocol.ProtocolError("answer over the size limit")
        if len(self._pending) < header + length:
            return None
        body = bytes(self._pending[header:header + length])
        del self._pending[:header + length]
        reply = protocol.parse_body(body)
        if not isinstance(reply, dict) or "status" not in reply:
            raise protocol.ProtocolError("answer without a status")
        return reply

    def _drain_output(self, selector: selectors.BaseSelector) -> None:
        chunk = os.read(self._process.output_r, 1 << 16)
        if not chunk:
            selector.unregister(self._process.output_r)
            return
        room = self.limits.output_kb * 1024 - len(self.output)
        self.output += chunk[:max(room, 0)]
        if len(chunk) > room:
            raise OutputFlood

    def _kill(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            process.kill()


class OutputFlood(Exception):
    """The student's code printed more than the output limit."""


def _status(status: str, message: str, kind: str = "") -> dict[str, Any]:
    return {"status": status, "error": {"type": kind, "message": message, "where": ""}}


# --- launchers ---------------------------------------------------------------------------------------


class _FreshProcess:
    """The portable fallback: a new Python process a submission, with rlimits and its own session."""

    def __init__(self, package_root: Path, limits: Limits):
        self._scratch = tempfile.TemporaryDirectory(prefix="attnkit-scratch-")
        requests_r, self.requests_w = os.pipe()
        self.responses_r, responses_w = os.pipe()
        self.output_r, output_w = os.pipe()
        resources = isolation.ResourceLimits(limits.memory_mb, limits.cpu_seconds)
        self._popen = subprocess.Popen(
            [sys.executable, "-m", "attnkit.sandbox.worker", str(package_root), str(responses_w)],
            stdin=requests_r, stdout=output_w, stderr=output_w, pass_fds=(responses_w,),
            cwd=self._scratch.name, env=_fresh_environment(self._scratch.name), start_new_session=True,
            preexec_fn=lambda: isolation.limit_resources(resources, isolated=False),
        )
        for fd in (requests_r, responses_w, output_w):
            os.close(fd)

    def kill(self) -> None:
        try:
            os.killpg(self._popen.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self._popen.wait()
        for fd in (self.requests_w, self.responses_r, self.output_r):
            os.close(fd)
        self._scratch.cleanup()


def _fresh_environment(home: str) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "OMP_NUM_THREADS": "1",
            "PYTHONDONTWRITEBYTECODE": "1"}


_shared_parent = None


def warm_parent():
    """This process's warm parent, started on first use (its torch import overlaps the grader's work)."""
    global _shared_parent
    if _shared_parent is None:
        from attnkit.sandbox.warm import WarmParent

        _shared_parent = WarmParent()
        atexit.register(_shared_parent.close)
    return _shared_parent


def _forget_warm_parent() -> None:
    """Stop using this warm parent; the next `warm_parent()` starts another."""
    global _shared_parent
    if _shared_parent is not None:
        _shared_parent.close()
        _shared_parent = None


def default_launcher(*, warn: bool = True) -> Launcher:
    """Forks from the warm parent on Linux; a fresh process a submission elsewhere.

    `warn`: say once what is not enforced when sandboxes are not isolated (not
    worth saying to a student checking their own code on their own machine).
    """
    if not sys.platform.startswith("linux"):
        if warn:
            warn_unisolated(isolation.probe())
        return _FreshProcess
    if warn:
        warn_unisolated(warm_parent().refusal)

    def launch(package_root: Path, limits: Limits) -> SandboxProcess:
        from attnkit.sandbox.warm import SpawnRequest

        request = SpawnRequest(str(package_root), limits.memory_mb, limits.cpu_seconds)
        try:
            return warm_parent().spawn(request)
        except OSError:  # the parent is gone (killed, out of memory): not the student's doing, so start another
            _forget_warm_parent()
            return warm_parent().spawn(request)

    return launch


def warn_unisolated(refusal: str | None) -> None:
    """One warning a run (worker processes inherit the silence) when sandboxes are not isolated."""
    if refusal is None or os.environ.get(QUIET_ENV):
        return
    os.environ[QUIET_ENV] = "1"
    print(f"attnkit: warning: student code is not isolated ({refusal}): {isolation.UNENFORCED}; "
          "only CPU time, memory, file size and output are limited.", file=sys.stderr)


def opener(limits: Limits, *, warn: bool = True) -> Callable[[Path], SandboxedSubmission]:
    """How a grading session opens sandboxes. On Linux the warm parent starts now and imports torch
    while the grader collects its checks; the launcher is only chosen (waiting for it) at the first
    sandbox."""
    if sys.platform.startswith("linux"):
        warm_parent()
    launchers: list[Launcher] = []

    def open_sandbox(package_root: Path) -> SandboxedSubmission:
        if not launchers:
            launchers.append(default_launcher(warn=warn))
        return SandboxedSubmission(package_root, limits, launchers[0])

    return open_sandbox
