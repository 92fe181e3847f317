"""One sandbox process of a submission, seen from the grader: its pipes, its frames, its output.

A `Connection` starts its process when first asked (and again after it ends), sends one request at a
time, answers the stand-in calls the request allows, watches the output limit and checks that a reply
answers its request. What a timeout, a death or a broken reply costs the student is not its business:
`runner.SandboxedSubmission` decides that, for the submission's public and hidden processes alike.
"""
from __future__ import annotations

import os
import select
import selectors
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from attnkit.sandbox import protocol
from attnkit.sandbox.limits import Limits, TimeBudget
from attnkit.sandbox.protocol import Standin, StandinAnswer, StandinCall

MAX_STANDIN_CALLS = 5000  # in one request: a loop over rows calls a stand-in once a row, not thousands of times
StandinHandler = Callable[[Standin, StandinCall], StandinAnswer]


class SandboxProcess(Protocol):
    """A running sandbox: where to write requests, read answers and output, and how to end it all."""

    requests_w: int
    responses_r: int
    output_r: int

    @property
    def out_of_memory(self) -> bool:
        """After `kill`: whether the submission's memory limit ended it."""

    def kill(self) -> None: ...

    def release(self) -> None:
        """End it without waiting to see it gone (its keeper clears up): the grader moves on at once."""


Launcher = Callable[[Path, Limits], SandboxProcess]


class Twin:
    """A sandbox's twin (`warm`) as a process of its own: its pipes, which close with its sandbox's, and
    its sandbox to end (the twin cannot be ended alone for sure, and ends with it)."""

    def __init__(self, sandbox: Any, connection: Connection):
        pipes = sandbox.twin
        self.requests_w, self.responses_r, self.output_r = pipes.requests_w, pipes.responses_r, pipes.output_r
        self._sandbox = sandbox
        self._connection = connection  # the sandbox's

    @property
    def out_of_memory(self) -> bool:
        return bool(self._sandbox.out_of_memory)

    def kill(self) -> None:
        self._connection.close(wait=True)

    def release(self) -> None:
        self._connection.close(wait=False)


class Connection:
    """One process running one submission's code: started on first use, one request at a time."""

    def __init__(self, package_root: Path, limits: Limits, launch: Launcher):
        self.package_root = package_root
        self.limits = limits
        self.output = bytearray()
        self.traced = False  # it ran a traced request: it answers no scored question again (`runner`)
        self.on_close: Callable[[bool], None] | None = None  # told `wait` whenever the process is ended here
        self._launch = launch
        self._process: SandboxProcess | None = None
        self._selector: selectors.BaseSelector | None = None  # the running process's pipes, watched
        self._pending = bytearray()

    @property
    def running(self) -> bool:
        return self._process is not None

    def start(self) -> None:
        """Start the process now, if none runs."""
        if self._process is None:
            self._process = self._launch(self.package_root, self.limits)
            self._pending = bytearray()
            self._selector = _watch(self._process)

    def exchange(self, request: protocol.Request | protocol.TraceRequest, on_standin: StandinHandler | None,
                 timeout: float, budget: TimeBudget) -> protocol.Reply | protocol.Trace:
        """The reply to one request, the process started first if none runs. Raises TimeoutError (the process
        is then gone), OutputFlood, EOFError or OSError (it ended) and protocol.ProtocolError (a broken reply)."""
        self.start()
        assert self._process is not None  # started
        try:
            return self._exchange(self._process, protocol.encode(request), request, on_standin, timeout, budget)
        except TimeoutError:
            self.close()
            raise

    def restart(self, refused: tuple[str, ...] | None = None) -> None:
        """End the process (the next request starts another), refusing `refused` from then on if given."""
        self.close(wait=False)
        if refused is not None:
            self.limits = replace(self.limits, refused=refused)

    def close(self, wait: bool = True) -> None:
        """Stop the process and everything it started; `wait=False` returns before all of it is gone
        (the warm parent still ends and clears it up)."""
        process, self._process = self._process, None
        self.traced = False
        if process is not None:
            if self._selector is not None:
                self._selector.close()
                self._selector = None
            (process.kill if wait else process.release)()
            if self.on_close is not None:
                self.on_close(wait)

    def end_and_say_why(self) -> str:
        """Clear up after a process that ended on its own, saying why when the sandbox knows."""
        process = self._process
        self.close()
        if process is not None and process.out_of_memory:
            return (f"the submission ran out of memory: its processes and memory files together "
                    f"may use {self.limits.memory_mb} MB")
        return ("the process running your code ended before answering "
                "(os._exit, a fatal signal such as a segfault, or a resource limit)")

    def _exchange(self, process: SandboxProcess, frame: bytes, request: protocol.Request | protocol.TraceRequest,
                  on_standin: StandinHandler | None, timeout: float,
                  budget: TimeBudget) -> protocol.Reply | protocol.Trace:
        """Send the request, answer stand-in calls as they come, return the reply (or raise)."""
        deadline = time.monotonic() + timeout
        if not self._pending and select.select([process.responses_r], [], [], 0)[0]:
            self._pending += os.read(process.responses_r, 1 << 16)
            if not self._pending:  # it ended between requests (its pair's memory, or its twin's, ran out)
                raise EOFError("the process ended before this request")
        if self._pending:
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
                remaining = budget.cap(deadline) - time.monotonic()
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
