"""The narrow way grading asks questions: the student's sandbox and the oracle, with or without stand-ins.

A probe never judges an answer; it only asks. Asked "with stand-ins", the student's code runs with the
reference's versions of the exercises it builds on (error carried forward, docs/contract.md), answered
here in the trusted process: the reference never enters the student's process.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from attnkit.grading.context import ExerciseContext
from attnkit.grading.oracle import Oracle, request_key
from attnkit.sandbox.protocol import (
    Answer,
    CallRequest,
    ConstantsRequest,
    ModuleRequest,
    Reply,
    Request,
    Returned,
    Standin,
    StandinAnswer,
    StandinCall,
    Trace,
    TraceRequest,
)

# A stand-in call is answered here, in the grader's process: its arguments may hold a few times the numbers of
# the check's own inputs (scores are n_q x n_k), never the square of them a hostile call could ask for.
STANDIN_ROOM, MIN_STANDIN_ROOM = 8, 1 << 14


class Probe:
    """Asks one student's sandbox and the oracle the questions of one check."""

    def __init__(self, sandbox: Any, oracle: Oracle, context: ExerciseContext):
        self.sandbox = sandbox
        self.oracle = oracle
        self.context = context
        self.standin_calls: list[tuple[Standin, StandinCall]] = []  # the first call of each stand-in, last run
        self.ran_with_standins = False

    def run(self, request: Request) -> Reply:
        """The student's raw answer."""
        return self.sandbox.run(request)

    def reference(self, request: Request) -> Answer:
        return self.oracle.reference(request)

    @property
    def records(self) -> bool:
        """The oracle records the answers it gives (a handout's), so follow-up questions are asked of it early."""
        return bool(getattr(self.oracle, "records", False))

    def ask(self, request: Request) -> Reply:
        """A follow-up question, asked as the last question was (with stand-ins if it used them)."""
        return self.run_with_standins(request, keep=True) if self.ran_with_standins else self.run(request)

    def ask_aside(self, request: Request) -> Reply | None:
        """The answer with stand-ins, leaving how later questions are asked as it was (None: none can be made)."""
        if not self.standins_possible():
            return None
        ran, calls = self.ran_with_standins, self.standin_calls
        try:
            return self.run_with_standins(request)
        finally:
            self.ran_with_standins, self.standin_calls = ran, calls

    def standins_possible(self) -> bool:
        return bool(self.context.standins) and self.oracle.can_stand_in

    def trace(self, request: Request, *, with_standins: bool, hidden: bool) -> Trace | None:
        """The question asked again under the line tracer, with stand-ins or not as it was first asked: the
        evidence a wrong answer is located by, asked once the student's checks are all done, of the process
        (the public or the hidden one) that first answered it (runner.SandboxedSubmission.trace). None where
        there is none to be had."""
        if not hasattr(self.sandbox, "trace") or isinstance(request, ConstantsRequest):
            return None

        def traced(asked: Request, answer: Any = None) -> Any:
            assert not isinstance(asked, ConstantsRequest)  # refused above
            return self.sandbox.trace(TraceRequest(asked), answer, hidden=hidden)

        ran, calls = self.ran_with_standins, self.standin_calls
        try:
            reply = self.run_with_standins(request, keep=True, send=traced) if with_standins else traced(request)
        finally:
            self.ran_with_standins, self.standin_calls = ran, calls
        return reply if isinstance(reply, Trace) else None

    def run_with_standins(self, request: Request, keep: bool = False, send: Any = None) -> Reply:
        """The student's own code, with correct stand-ins for the exercises it builds on (`send`: how the
        request reaches the sandbox, its `run` unless said)."""
        self.ran_with_standins = True
        if not keep:
            self.standin_calls = []

        room = max(STANDIN_ROOM * numbers_in(request), MIN_STANDIN_ROOM)

        def answer(standin: Standin, standin_call: StandinCall) -> StandinAnswer:
            if numbers_in((standin_call.args, standin_call.kwargs, standin_call.grad_outputs)) > room:
                return StandinAnswer(error=f"a call of {standin.function} on more numbers than this check's "
                                           "inputs could lead to (the reference's work is the grader's)")
            if standin_call.grad_outputs is None and all(s != standin for s, _ in self.standin_calls):
                self.standin_calls.append((standin, standin_call))  # the first call of each is asked again
            return self.oracle.standin(standin, standin_call, room)

        return (send or self.sandbox.run)(_with_standins(request, self.context.standins), answer)


def _with_standins(request: Request, standins: tuple[Standin, ...]) -> Request:
    return replace(request, standins=standins) if isinstance(request, (CallRequest, ModuleRequest)) else request


def numbers_in(value: Any) -> int:
    """How many numbers the arrays in a request or a stand-in call's arguments hold."""
    if isinstance(value, np.ndarray):
        return int(value.size)
    if isinstance(value, dict):
        return sum(numbers_in(v) for v in value.values())
    if isinstance(value, (tuple, list)):
        return sum(numbers_in(v) for v in value)
    if isinstance(value, (CallRequest, ModuleRequest)):
        return numbers_in((getattr(value, "args", ()), getattr(value, "input", None), getattr(value, "weights", {}),
                           getattr(value, "upstream", None)))
    return 0


def numbers_key(request: Request) -> str:
    """A digest of a request's arrays alone (the numbers a student's code is given)."""
    arrays = [a for a in getattr(request, "args", ()) if isinstance(a, np.ndarray)]
    if isinstance(request, ModuleRequest):
        arrays = [request.input] if request.input is not None else []
    return request_key(CallRequest("", "", tuple(arrays))) if arrays else request_key(request)


def sliced(request: Request) -> Request:
    """The request on its array arguments' first 2-D grids."""
    return replace(request, args=tuple(_first_grid(a) for a in request.args)) if isinstance(request, CallRequest) \
        else request


def _first_grid(value: Any) -> Any:
    """An array argument's first 2-D grid (all leading indices 0); other arguments as they are."""
    if isinstance(value, np.ndarray) and value.ndim > 2:
        return value[(0,) * (value.ndim - 2)]
    return value


def returned(answer: Answer) -> Returned:
    """What a call or a layer's forward returned: an answer to either has it (the runner checks)."""
    assert answer.returned is not None
    return answer.returned


def default_names(reference: Answer) -> list[str]:
    """The outputs' names for feedback, where a check gives none."""
    if reference.returned is None or reference.returned.kind == "array":
        return ["the result"]
    return [f"result {i}" for i in range(1, len(reference.returned.items) + 1)]
