"""The grader's side of a sandboxed submission: send requests, enforce limits.

One `SandboxedSubmission` serves one student. Its process is started lazily and
started again after it dies, so one exercise's infinite loop or `os._exit`
costs that exercise, not the whole submission.
"""
from __future__ import annotations

import os
import resource
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from attnkit.sandbox import protocol


@dataclass(frozen=True)
class Limits:
    """What one submission may use. Defaults live in course.toml's [settings]."""

    call_timeout: float = 10.0
    memory_mb: int = 2048
    output_kb: int = 64


def _limit_resources(limits: Limits) -> None:
    """Runs in the child before exec: cap memory, core files and file size."""
    memory = limits.memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (16 * 1024 * 1024, 16 * 1024 * 1024))


class SandboxedSubmission:
    """Runs requests against one submission's `exercises` package in a child process."""

    def __init__(self, package_root: Path, limits: Limits = Limits()):
        self.package_root = Path(package_root).resolve()
        self.limits = limits
        self.output = bytearray()
        self._process: subprocess.Popen | None = None
        self._hung_modules: set[str] = set()
        self._scratch = tempfile.TemporaryDirectory(prefix="attnkit-scratch-")

    def __enter__(self) -> "SandboxedSubmission":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def captured_output(self) -> str:
        """What the student's code printed, capped at the output limit."""
        return self.output.decode("utf-8", errors="replace")

    def request(self, request: dict[str, Any]) -> dict[str, Any]:
        """Run one request; timeouts and deaths become statuses, never exceptions."""
        module = request.get("module", "")
        if module in self._hung_modules:
            return _status("timeout", f"an earlier call into {module}.py ran out of time")
        if self._process is None:
            self._start()
        try:
            return self._exchange(protocol.dumps(request))
        except TimeoutError:
            self._hung_modules.add(module)
            self._kill()
            return _status("timeout", f"no answer within {self.limits.call_timeout:g} s")
        except (EOFError, protocol.ProtocolError) as error:
            code = self._kill()
            return _status("exited", f"the process ended (exit status {code}): {error}")

    def close(self) -> None:
        """Stop the process and everything it started; remove the scratch folder."""
        self._kill()
        self._scratch.cleanup()

    def _start(self) -> None:
        self._requests_r, self._requests_w = os.pipe()
        self._responses_r, responses_w = os.pipe()
        self._output_r, output_w = os.pipe()
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self._scratch.name,
               "OMP_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1"}
        self._process = subprocess.Popen(
            [sys.executable, "-m", "attnkit.sandbox.worker", str(self.package_root), str(responses_w)],
            stdin=self._requests_r, stdout=output_w, stderr=output_w, pass_fds=(responses_w,),
            cwd=self._scratch.name, env=env, start_new_session=True,
            preexec_fn=lambda: _limit_resources(self.limits),
        )
        for fd in (self._requests_r, responses_w, output_w):
            os.close(fd)
        self._pending = bytearray()

    def _exchange(self, message: bytes) -> dict[str, Any]:
        deadline = time.monotonic() + self.limits.call_timeout
        outgoing = memoryview(message)
        selector = selectors.DefaultSelector()
        os.set_blocking(self._requests_w, False)
        selector.register(self._requests_w, selectors.EVENT_WRITE, "requests")
        selector.register(self._responses_r, selectors.EVENT_READ, "responses")
        selector.register(self._output_r, selectors.EVENT_READ, "output")
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
                        outgoing = outgoing[os.write(self._requests_w, outgoing):]
                        if not outgoing:
                            selector.unregister(self._requests_w)
                    elif key.data == "output":
                        self._drain_output(selector)
                    else:
                        chunk = os.read(self._responses_r, 1 << 16)
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
        chunk = os.read(self._output_r, 1 << 16)
        if not chunk:
            selector.unregister(self._output_r)
            return
        room = self.limits.output_kb * 1024 - len(self.output)
        if room > 0:
            self.output += chunk[:room]

    def _kill(self) -> int | None:
        process, self._process = self._process, None
        if process is None:
            return None
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        code = process.wait()
        for fd in (self._requests_w, self._responses_r, self._output_r):
            os.close(fd)
        return code


def _status(status: str, message: str) -> dict[str, Any]:
    return {"status": status, "error": {"type": "", "message": message, "where": ""}}
