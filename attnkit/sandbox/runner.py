"""The grader's side of a sandboxed submission: send requests, enforce limits.

One `SandboxedSubmission` serves one student. Its process is started lazily and
started again after it dies, so one exercise's infinite loop or `os._exit`
costs that exercise, not the whole submission; its calls together have a time
budget (`TimeBudget`). On Linux the process is forked from a warm parent that
has already imported torch (`warm`), locked down (`isolation`) and limited as a
whole (`cgroups`); elsewhere it is a fresh `python -m attnkit.sandbox.worker`
with rlimits only, and one warning says what is not enforced.
"""
from __future__ import annotations

import atexit
import math
import os
import select
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from attnkit.sandbox import isolation, protocol, refusals
from attnkit.sandbox.protocol import Failure, Standin, StandinAnswer, StandinCall
from attnkit.settings import Settings

TRACE_TIMEOUT, TRACE_BUDGET = 5.0, 15.0  # seconds of one traced run, and of all of one submission's
MAX_STANDIN_CALLS = 5000  # in one request: a loop over rows calls a stand-in once a row, not thousands of times
StandinHandler = Callable[[Standin, StandinCall], StandinAnswer]


@dataclass(frozen=True)
class Limits:
    """What one submission may use; the defaults are course.toml's [settings] defaults (attnkit.settings)."""

    call_timeout: float = Settings.call_timeout
    memory_mb: int = Settings.memory_limit_mb
    output_kb: int = Settings.output_limit_kb
    time_budget: float = Settings.time_budget  # seconds for all of a submission's calls together
    refused: tuple[str, ...] = ()  # names of library routines the code may not reach (`refusals`)

    @property
    def cpu_seconds(self) -> int:
        """CPU time for the whole submission: a backstop behind the wall-clock timeout of each call."""
        return int(self.call_timeout * 30) + 1


class SandboxProcess(Protocol):
    """A running sandbox: where to write requests, read answers and output, and how to end it all."""

    requests_w: int
    responses_r: int
    output_r: int
    out_of_memory: bool  # after `kill`: whether the submission's memory limit ended it

    def kill(self) -> None: ...

    def release(self) -> None:
        """End it without waiting to see it gone (its keeper clears up): the grader moves on at once."""


Launcher = Callable[[Path, Limits], SandboxProcess]


class SandboxedSubmission:
    """Runs requests against one submission's `exercises` package in a child process."""

    def __init__(self, package_root: Path, limits: Limits = Limits(), launcher: Launcher | None = None):
        self.package_root = Path(package_root).resolve()
        self.limits = limits
        self.output = bytearray()
        self._launch = launcher or default_launcher()
        self._process: SandboxProcess | None = None
        self._selector: selectors.BaseSelector | None = None  # the running process's pipes, watched
        self._hung_modules: set[tuple[str, bool, bool]] = set()  # (module, with stand-ins, build only)
        self.malformed = ""  # why this submission's replies cannot be trusted, once one broke the protocol
        self._budget = TimeBudget(limits.time_budget)
        self._constants: dict[tuple[str, tuple[str, ...]], protocol.Reply] = {}  # read by this process
        self._exercise_refuses = bool(limits.refused)  # the current exercise's own refusals (`begin_exercise`)
        self._tracing: SandboxedSubmission | None = None  # the process traced runs go to (see `trace`)

    def __enter__(self) -> SandboxedSubmission:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def captured_output(self) -> str:
        """What the student's code printed, capped at the output limit."""
        return self.output.decode("utf-8", errors="replace")

    def run(self, request: protocol.Request, on_standin: StandinHandler | None = None) -> protocol.Reply:
        """Run one request; timeouts, deaths, floods and malformed replies become failures, never exceptions.

        `on_standin` answers the stand-in calls the request's `standins` allow (the grader's numbers);
        a reply that breaks the protocol fails the call as `malformed-reply` and marks the whole
        submission (`malformed`): its process wrote something no honest worker writes.

        A module's constants are read once a process: checks that each need the same table (cake's
        four) get the first reply again, rather than a process woken to read attributes that code
        which does not rewrite its own module cannot change.
        """
        if isinstance(request, protocol.ConstantsRequest):
            key = (request.module, request.names)
            if key not in self._constants:
                reply = self._untraced(request, on_standin)
                if self._process is None:  # the read ended the process: a new one reads afresh
                    return reply
                self._constants[key] = reply
            return self._constants[key]
        reply = self._untraced(request, on_standin)
        if self.limits.refused and not self._exercise_refuses and _reached_refused(reply):
            self.close(wait=False)  # this exercise may use what the process refuses: ask one that refuses nothing
            self.limits = replace(self.limits, refused=())
            reply = self._untraced(request, on_standin)
        return reply

    def _untraced(self, request: protocol.Request, on_standin: StandinHandler | None) -> protocol.Reply:
        reply = self._run(request, on_standin)
        assert not isinstance(reply, protocol.Trace)  # `_fits`: a trace answers a TraceRequest only
        return reply

    def _run(self, request: protocol.Request | protocol.TraceRequest,
             on_standin: StandinHandler | None) -> protocol.Reply | protocol.Trace:
        module = request.module
        if self.malformed:
            return Failure("malformed-reply", "MalformedReply", self.malformed)
        if self._budget.spent:
            return self._budget.spent_failure()
        # What hung, remembered with how it was asked: with stand-ins a dependency's hang is gone, and
        # building a layer without running it runs none of its forward code.
        hang = (module, bool(getattr(request, "standins", ())), getattr(request, "input", 0) is None)
        if hang in self._hung_modules:
            return Failure("timeout", "", f"an earlier call into {module}.py ran out of time")
        try:
            with self._budget.counting():  # starting a process and ending a hung one cost the class time too
                return self._attempt(hang, request, on_standin)
        except TimeoutError:
            if self._budget.spent:
                return self._budget.spent_failure()
            return Failure("timeout", "", f"no answer within {self.limits.call_timeout:g} s")

    def _attempt(self, hang: tuple[str, bool, bool], request: protocol.Request | protocol.TraceRequest,
                 on_standin: StandinHandler | None) -> protocol.Reply | protocol.Trace:
        """One request in the running process (started first if none is): its reply or its failure;
        TimeoutError, once the hung process is gone."""
        try:
            if self._process is None:
                self._process = self._launch(self.package_root, self.limits)
                self._pending = bytearray()
                self._selector = _watch(self._process)
            return self._exchange(self._process, protocol.encode(request), request, on_standin)
        except TimeoutError:
            self._hung_modules.add(hang)
            self._kill()
            raise
        except OutputFlood:
            self._kill()
            return Failure("crash", "OutputLimitExceeded",
                           f"printed more than {self.limits.output_kb} KiB; the rest was cut off")
        except (EOFError, OSError):
            return Failure("exited", "", self._end_and_say_why())
        except protocol.ProtocolError as error:
            self._kill()
            self.malformed = f"the process running your code sent a malformed reply: {error}"
            return Failure("malformed-reply", "MalformedReply", self.malformed)

    def begin_exercise(self, refused: tuple[str, ...] = ()) -> None:
        """The next requests are one exercise's, whose sandbox refuses the library routines `refused` names
        (`refusals.install`, before any of the student's code runs there).

        A refusal cannot be installed after the student's code has run (it could have disarmed it), nor
        lifted (the student's code could lift it too), so an exercise that refuses what the running
        process does not gets a fresh one. An exercise that refuses nothing keeps the process it finds,
        refusing or not: most code never reaches a refused routine outside the softmax exercise, and a
        fresh fork costs about 15 ms (one an exercise would double a class's grading time). Where its
        code does reach one (attention may use the library's softmax), `run` asks again in a fresh
        process that refuses nothing.
        """
        self._exercise_refuses = bool(refused)
        if refused and refused != self.limits.refused:
            self.close(wait=False)
            self.limits = replace(self.limits, refused=refused)

    def trace(self, request: protocol.TraceRequest, on_standin: StandinHandler | None = None) -> protocol.Trace | None:
        """The request's traced second run, or None: evidence for a wrong answer's feedback, never for a score.

        It runs in a second process of this submission's own (started at the first trace, kept for the
        next), so nothing the traced run does, prints or learns (that it is traced, so its answer was
        wrong) reaches the process whose answers are scored; that process has its own time budget and
        shorter calls, and a timeout, a flood or a malformed trace there cost the trace alone.
        """
        if self.malformed or self._budget.spent:
            return None
        if self._tracing is None:
            limits = replace(self.limits, call_timeout=min(self.limits.call_timeout, TRACE_TIMEOUT),
                             time_budget=min(self.limits.time_budget, TRACE_BUDGET))
            self._tracing = SandboxedSubmission(self.package_root, limits, self._launch)
        reply = self._tracing._run(request, on_standin)
        return reply if isinstance(reply, protocol.Trace) else None

    def close(self, wait: bool = True) -> None:
        """Stop the process and everything it started; `wait=False` returns before all of it is gone
        (the warm parent still ends and clears it up): how the grader leaves a student it is done with."""
        process, self._process = self._process, None
        self._constants.clear()
        if self._tracing is not None:
            self._tracing.close(wait)
        if process is not None:
            self._unwatch()
            (process.kill if wait else process.release)()

    def _exchange(self, process: SandboxProcess, frame: bytes, request: protocol.Request | protocol.TraceRequest,
                  on_standin: StandinHandler | None) -> protocol.Reply | protocol.Trace:
        """Send the request, answer stand-in calls as they come, return the reply (or raise)."""
        deadline = time.monotonic() + self.limits.call_timeout
        if self._pending or select.select([process.responses_r], [], [], 0)[0]:
            raise protocol.ProtocolError("a reply that no request asked for")
        outgoing = bytearray(frame)
        standin_calls = 0
        selector = self._selector
        assert selector is not None  # watched from the launch on
        try:
            while True:
                message = self._complete_frame()
                if isinstance(message, StandinCall):
                    standin_calls += 1
                    outgoing += protocol.encode(self._answer_standin(message, request, on_standin, standin_calls))
                    continue  # the grader's time answering counts against the call: a storm of calls times out
                if message is not None:
                    if self._pending or outgoing:
                        raise protocol.ProtocolError("more than one reply to one request")
                    return _fits(message, request)
                writing = process.requests_w in selector.get_map()
                if outgoing and not writing:  # most frames fit the pipe at once: watch for room only if not
                    del outgoing[:_write_some(process.requests_w, outgoing)]
                if outgoing and not writing:
                    selector.register(process.requests_w, selectors.EVENT_WRITE, "requests")
                remaining = self._budget.cap(deadline) - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError
                for key, _ in selector.select(remaining):
                    if key.data == "requests":
                        del outgoing[:os.write(process.requests_w, outgoing)]
                        if not outgoing:
                            selector.unregister(process.requests_w)
                    elif key.data == "output":
                        self._drain_output(process, selector)
                    else:
                        chunk = os.read(process.responses_r, 1 << 16)
                        if not chunk:
                            raise EOFError("no answer")
                        self._pending += chunk
        finally:
            if process.requests_w in selector.get_map():  # left unsent: the process is killed at once
                selector.unregister(process.requests_w)

    def _answer_standin(self, call: StandinCall, request: protocol.Request | protocol.TraceRequest,
                        on_standin: StandinHandler | None, count: int) -> StandinAnswer:
        """The grader's numbers for a stand-in call the request allowed; any other call is malformed."""
        standins = getattr(request, "standins", ())
        if on_standin is None or not 0 <= call.standin < len(standins):
            raise protocol.ProtocolError("a stand-in call the request did not offer")
        if count > MAX_STANDIN_CALLS:
            return StandinAnswer(error=f"more than {MAX_STANDIN_CALLS} calls in one check")
        return on_standin(standins[call.standin], call)

    def _complete_frame(self) -> Any:
        """The next whole message from the sandbox, checked; None until one has arrived."""
        header = protocol.HEADER.size
        if len(self._pending) < header:
            return None
        length = protocol.frame_length(bytes(self._pending[:header]))
        if len(self._pending) < header + length:
            return None
        body = bytes(self._pending[header:header + length])
        del self._pending[:header + length]
        return protocol.decode(body, protocol.FROM_SANDBOX)

    def _drain_output(self, process: SandboxProcess, selector: selectors.BaseSelector) -> None:
        chunk = os.read(process.output_r, 1 << 16)
        if not chunk:
            selector.unregister(process.output_r)
            return
        room = self.limits.output_kb * 1024 - len(self.output)
        self.output += chunk[:max(room, 0)]
        if len(chunk) > room:
            raise OutputFlood

    def _kill(self) -> None:
        self.close(wait=True)

    def _unwatch(self) -> None:
        if self._selector is not None:
            self._selector.close()
            self._selector = None

    def _end_and_say_why(self) -> str:
        """Clear up after a process that ended on its own, saying why when the sandbox knows."""
        process = self._process
        self._kill()
        if process is not None and process.out_of_memory:
            return (f"the submission ran out of memory: its processes and memory files together "
                    f"may use {self.limits.memory_mb} MB")
        return ("the process running your code ended before answering "
                "(os._exit, a fatal signal such as a segfault, or a resource limit)")


def _reached_refused(reply: protocol.Reply) -> bool:
    """Whether the code reached a routine its process refuses (the call failed on it, or says it reached it)."""
    if isinstance(reply, Failure):
        return refusals.is_refusal(reply.message)
    return bool(reply.calls)


def _write_some(fd: int, data: bytearray) -> int:
    """Write what the pipe takes now, without waiting (the fd is non-blocking); how many bytes went."""
    try:
        return os.write(fd, data)
    except BlockingIOError:
        return 0


def _watch(process: SandboxProcess) -> selectors.BaseSelector:
    """One selector for the whole life of a process (not one a call): its answers and its output to read,
    its requests to write without blocking (registered only while a frame waits to go)."""
    selector = selectors.DefaultSelector()
    os.set_blocking(process.requests_w, False)
    selector.register(process.responses_r, selectors.EVENT_READ, "responses")
    selector.register(process.output_r, selectors.EVENT_READ, "output")
    return selector


class TimeBudget:
    """The wall time all of one submission's calls may take together.

    Each call's own timeout stops one endless call; the budget stops a student
    whose every call takes just under it: once it is spent, every remaining call
    answers `timeout` at once, so a submission costs the class at most this much
    time. It counts whole calls, the grader's answers to stand-in calls included,
    as a call's own timeout does: they are time the submission costs too.
    """

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.used = 0.0
        self._ends = math.inf

    @property
    def spent(self) -> bool:
        return self.used >= self.seconds

    @contextmanager
    def counting(self) -> Iterator[None]:
        """Charge the time spent inside the block (one call into student code) to the budget."""
        start = time.monotonic()
        self._ends = start + self.seconds - self.used
        try:
            yield
        finally:
            self.used += time.monotonic() - start
            self._ends = math.inf

    def cap(self, deadline: float) -> float:
        """The earlier of a call's own deadline and the moment the budget runs out."""
        return min(deadline, self._ends)

    def spent_failure(self) -> Failure:
        return Failure("timeout", "", f"the submission's time budget of {self.seconds:g} s is spent")


def _fits(reply: protocol.Reply | protocol.Trace,
          request: protocol.Request | protocol.TraceRequest) -> protocol.Reply | protocol.Trace:
    """A reply whose parts are those its request asks for (a forged one may answer another request)."""
    if isinstance(request, protocol.TraceRequest):
        if isinstance(reply, protocol.Trace):
            _fits(reply.reply, request.request)
        return reply  # a Failure: the trace could not be sent (too large), which the grader reads as no trace
    if isinstance(reply, protocol.Trace):
        raise protocol.ProtocolError("a trace that no request asked for")
    if isinstance(reply, protocol.Answer):
        wanted = {protocol.CallRequest: reply.returned is not None and reply.layer is None and not reply.constants,
                  protocol.ModuleRequest: reply.layer is not None and not reply.constants
                  and (reply.returned is not None) == (getattr(request, "input", None) is not None),
                  protocol.ConstantsRequest: reply.returned is None and reply.layer is None
                  and set(reply.constants) == set(getattr(request, "names", ()))}
        if not wanted[type(request)] or not _fits_arrays(reply, request):
            raise protocol.ProtocolError("a reply that does not answer its request")
    return reply


def _fits_arrays(answer: protocol.Answer, request: protocol.Request) -> bool:
    """The arrays and tables an answer holds are those its request implies, shaped as asked: the grader's
    checks read them by the request's names and shapes, as an honest worker sends them."""
    if isinstance(request, protocol.CallRequest):
        return len(answer.inputs_after) == len(request.args) and all(
            after is None or (isinstance(arg, np.ndarray) and after.shape == arg.shape)
            for after, arg in zip(answer.inputs_after, request.args))
    if isinstance(request, protocol.ModuleRequest) and answer.layer is not None:
        layer, weights = answer.layer, request.weights
        expected_grads = set(weights) - set(layer.unset) if request.upstream is not None and request.input is not None \
            else set()
        return (set(layer.parts) == set(request.parts) and set(layer.unset) <= set(weights)
                and set(layer.grads) == expected_grads
                and all(g is None or g.shape == weights[name].shape for name, g in layer.grads.items()))
    return True


class OutputFlood(Exception):
    """The student's code printed more than the output limit."""


# --- launchers ---------------------------------------------------------------------------------------


class _FreshProcess:
    """The portable fallback: a new Python process a submission, with rlimits and its own session."""

    out_of_memory = False  # rlimits make allocations fail (MemoryError) rather than end the process

    def __init__(self, package_root: Path, limits: Limits):
        self._scratch = tempfile.TemporaryDirectory(prefix="attnkit-scratch-")
        requests_r, self.requests_w = os.pipe()
        self.responses_r, responses_w = os.pipe()
        self.output_r, output_w = os.pipe()
        resources = isolation.ResourceLimits(limits.memory_mb, limits.cpu_seconds)
        self._popen = subprocess.Popen(
            [sys.executable, "-m", "attnkit.sandbox.worker", str(package_root), str(responses_w), *limits.refused],
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

    release = kill


def _fresh_environment(home: str) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "OMP_NUM_THREADS": "1",
            "PYTHONDONTWRITEBYTECODE": "1"}


_shared_parent = None


def warm_parent(sharers: int = 0, huge_pages: bool = False):
    """This process's warm parent, started on first use (its torch import overlaps the grader's work);
    `sharers`: how many grading workers will share it (`WarmParent.shared_sockets`); `huge_pages`: for a
    class, back its heap with huge pages."""
    global _shared_parent
    if _shared_parent is None:
        from attnkit.sandbox.warm import WarmParent

        _shared_parent = WarmParent(sharers=sharers, huge_pages=huge_pages)
        atexit.register(_shared_parent.close)
    return _shared_parent


def take_shared_sockets() -> list[socket.socket]:
    """The sockets to this process's warm parent meant for grading workers (none when no parent was started
    for sharing); each is taken once."""
    if _shared_parent is None:
        return []
    shared, _shared_parent.shared_sockets = _shared_parent.shared_sockets, []
    return shared


def join_warm_parent(fd: int) -> None:
    """Use the warm parent the grading process started and handed down as `fd`, rather than start one."""
    global _shared_parent
    from attnkit.sandbox.warm import WarmParent

    _shared_parent = WarmParent.joined(fd)
    atexit.register(_shared_parent.close)


def stop_warm_parent() -> None:
    """Stop using this process's warm parent (close it, or let go of one joined); the next `warm_parent()`
    starts another."""
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
            warn_unenforced(isolation.probe(), "cgroups need Linux")
        return _FreshProcess
    if warn:
        warn_unenforced(warm_parent().refusal, warm_parent().cgroup_refusal)

    def launch(package_root: Path, limits: Limits) -> SandboxProcess:
        from attnkit.sandbox.warm import SpawnRequest

        request = SpawnRequest(str(package_root), limits.memory_mb, limits.cpu_seconds, limits.refused)
        try:
            return warm_parent().spawn(request)
        except OSError:  # the parent is gone (killed, out of memory): not the student's doing, so start another
            stop_warm_parent()
            return warm_parent().spawn(request)

    return launch


def warn_unenforced(refusal: str | None, cgroup_refusal: str | None) -> None:
    """Say once what is not enforced when sandboxes are not isolated, or their limits hold per process
    only (to `warning_sink`: stderr, or a grading worker's channel to the process that started it)."""
    if refusal is None and cgroup_refusal is None:
        return
    parts = [f"student code is not isolated ({refusal}): {isolation.unenforced()}"] if refusal else []
    if cgroup_refusal is None:
        parts.append("memory and processes are limited for each submission as a whole, "
                     "and nothing it starts outlives grading")
    else:
        parts.append(f"limits hold per process only ({cgroup_refusal}): memory_limit_mb bounds each process's "
                     "address space, so a submission's processes and memory files together can hold more")
        if refusal:
            parts.append("a detached process it starts may outlive grading")
    say_once(f"attnkit: warning: {'; '.join(parts)}.")


def say_once(text: str) -> None:
    """Pass a warning on, the first time this process meets it."""
    if text not in _said:
        _said.add(text)
        warning_sink(text)


def _to_stderr(text: str) -> None:
    print(text, file=sys.stderr)


_said: set[str] = set()
warning_sink: Callable[[str], None] = _to_stderr  # a grading worker sends its warnings to the grading process


def prewarm(sharers: int = 0, huge_pages: bool = False) -> None:
    """Start the warm parent now (on Linux), so its torch import overlaps whatever the caller does next:
    the first thing `attnkit check` and `attnkit grade` do, as the parent's start is on their critical path.
    `sharers`: grading workers that will share it; `huge_pages`: for a class (see `warm_parent`)."""
    if sys.platform.startswith("linux"):
        warm_parent(sharers, huge_pages)


def opener(limits: Limits, *, warn: bool = True) -> Callable[[Path], SandboxedSubmission]:
    """How a grading session opens sandboxes. On Linux the warm parent starts now and imports torch
    while the grader collects its checks; the launcher is only chosen (waiting for it) at the first
    sandbox."""
    prewarm()
    launchers: list[Launcher] = []

    def open_sandbox(package_root: Path) -> SandboxedSubmission:
        if not launchers:
            launchers.append(default_launcher(warn=warn))
        return SandboxedSubmission(package_root, limits, launchers[0])

    return open_sandbox
