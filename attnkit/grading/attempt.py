"""The API a grader's test uses: call the student's code, compare, and say what is wrong.

A grader never touches the student's objects: it builds requests (`call`, `layer`, `constants`),
the `Attempt` sends them to the student's sandbox and to the oracle (`probe.Probe`), and decides in
this trusted process. `expect` is the whole method of a check: it asks one question and hands both
answers to the declared order of diagnosis (`attnkit.grading.steps.STEPS`: right, carried forward,
crashed, explained by one mistake or two, by a generic sign, or described under a generic id).
A check reports every finding (`report`) and fails at its end if it has any; `fail` stops it.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NoReturn

import numpy as np
from _pytest.outcomes import Failed  # pytest.fail.Exception, by a name mypy can take a base class from

from attnkit.grading.context import ExerciseContext
from attnkit.grading.diagnosis import Finding, explanations, layout, reference_values
from attnkit.grading.engine_ids import CRASH, GENERIC_IDS
from attnkit.grading.memory import Carried, CheckRecord, Question, StudentMemory
from attnkit.grading.oracle import NotRecorded, Oracle
from attnkit.grading.probe import Probe, default_names, numbers_key, sliced
from attnkit.grading.steps import Case, diagnose
from attnkit.grading.steps.case import problem, status_finding
from attnkit.grading.steps.crashed import NOT_COMPILED
from attnkit.sandbox.protocol import (
    Answer,
    CallRequest,
    ConstantsRequest,
    Failure,
    ModuleRequest,
    Reply,
    Request,
    Value,
)


class CheckFailed(Failed):
    """A check stopped by `Attempt.fail`; its findings are on the Attempt.

    A pytest failure (a BaseException: a grader's `except Exception` does not swallow it), without
    a traceback, which nothing reads.
    """

    def __init__(self, summary: str):
        super().__init__(summary, pytrace=False)


# --- requests a grader builds ----------------------------------------------------------------------


def call(module: str, function: str, *args: Value, dtype: str = "float32") -> CallRequest:
    """Call `exercises.<module>.<function>(*args)` (positionally: parameter names are the student's)."""
    return CallRequest(module, function, tuple(args), dtype)


def layer(module: str, cls: str, init: Sequence[Value], *, parts: Sequence[str], weights: dict[str, np.ndarray],
          input: np.ndarray | None, upstream: np.ndarray | None = None, dtype: str = "float32",
          zero_unset: bool = False) -> ModuleRequest:
    """Build `cls(*init)`, set `weights` through its parameters, run it on `input`, send `upstream` back."""
    return ModuleRequest(module, cls, tuple(init), tuple(parts), dict(weights), input, upstream, dtype, zero_unset)


def constants(module: str, names: Sequence[str]) -> ConstantsRequest:
    """Read module-level constants as numbers."""
    return ConstantsRequest(module, tuple(names))


class Attempt:
    """One student's attempt at one exercise, as seen by one check."""

    def __init__(self, sandbox: Any, oracle: Oracle, context: ExerciseContext, record: CheckRecord,
                 memory: StudentMemory):
        self.probe = Probe(sandbox, oracle, context)
        self.context = context
        self.record = record
        self.memory = memory

    # --- the raw calls -------------------------------------------------------------------------

    def run(self, request: Request) -> Reply:
        """The student's raw answer, with no verdict (for checks that judge structure or rules).

        Where a module this exercise builds on does not compile, the answer is its own code's with correct
        stand-ins for that module, and the check is spared its mistake (carried forward, docs/contract.md):
        a syntax error costs its own exercise only, as any other broken dependency does."""
        reply = self.probe.run(request)
        broken = self._uncompiled_dependency(reply)
        if broken is None:
            return reply
        spared = self.probe.run_with_standins(request)
        if isinstance(spared, Failure):
            return reply
        assert isinstance(reply, Failure)  # a module that does not compile: the reply said so
        self.record.carried.append(Carried(broken, (CRASH,), f"{reply.type} ({reply.where})"))
        return spared

    def _uncompiled_dependency(self, reply: Reply) -> str | None:
        """The exercise this one builds on whose module the reply says does not compile, if any."""
        if not isinstance(reply, Failure) or reply.type not in NOT_COMPILED or not self.context.carry_forward \
                or not self.probe.standins_possible():
            return None
        module = reply.where.partition(".py, line ")[0]
        owner = self.context.module_exercises.get(module)
        return owner if owner is not None and owner != self.context.exercise.id else None

    def reference(self, request: Request) -> Answer:
        return self.probe.reference(request)

    def ask(self, request: Request) -> Reply:
        """The student's answer to a follow-up question, asked as the last `expect` asked (with
        stand-ins for the dependencies if it used them), so a probe sees only this exercise's code."""
        return self.probe.ask(request)

    def ask_with_standins(self, request: Request) -> Reply | None:
        """The student's answer with correct stand-ins for the exercises this one builds on, asked aside:
        it changes nothing of how the check goes on (None where no stand-in can be made: a self-check, or
        an exercise that builds on none). Evidence for the feedback only, never for points: code can
        tell a stand-in run apart."""
        return self.probe.ask_aside(request)

    def right(self, request: Request, reply: Reply) -> bool:
        """Whether a reply is the reference's answer to `request` (and left its inputs alone); False where
        the answer is not known (a self-check asking a question the handout did not record)."""
        try:
            reference = self.reference(request)
        except NotRecorded:
            return False
        return problem(self.context, request, reply, reference, default_names(reference)) is None

    def explained_by(self, request: Request, reply: Reply) -> list[tuple[str, ...]]:
        """The catalogued mistakes (one, else two) whose models give this reply's numbers to `request`, each as
        a sorted tuple of ids; nothing is recorded (a grader's own probe, such as the layer with its bias made
        zero, asks what else the numbers show)."""
        try:
            reference = self.reference(request)
        except NotRecorded:
            return []
        if isinstance(reply, Failure) or reply.returned is None or reference.returned is None:
            return []
        values = layout(reply.returned, reference.returned, default_names(reference))
        if isinstance(values, str):
            return []
        rtol, atol = self.context.rtol, self.context.atol
        for size in (1, 2):
            found = explanations(values, self.probe.oracle.candidates(request, size), rtol, atol)
            if found:
                return found
        return []

    @property
    def findings(self) -> tuple[Finding, ...]:
        """What the check has found so far (read only: `report`, `fail` and `explain` change it)."""
        return tuple(self.record.findings)

    def unexplained(self) -> Finding | None:
        """The check's finding that names only a generic mistake or a crash (what no model explained), if any."""
        return next((f for f in self.record.findings
                     if f.proven_only or (len(f.explanations) == 1 and set(f.explanations[0]) <= GENERIC_IDS)), None)

    def explain(self, finding: Finding, mistake: str, detail: str) -> None:
        """Name what a grader found behind a generic finding (a probe showed its cause)."""
        self.record.findings[self.record.findings.index(finding)] = Finding.named(mistake, detail=detail)

    # --- findings -------------------------------------------------------------------------------

    def report(self, mistake: str, detail: str = "") -> None:
        """Record a catalogued mistake; the check fails at its end."""
        if mistake not in self.context.catalogue:
            raise KeyError(f"{mistake!r} is not in the mistake catalogue")
        self.record.findings.append(Finding.named(mistake, detail=detail))

    def fail(self, mistake: str, detail: str = "") -> NoReturn:
        """Record a catalogued mistake and stop the check."""
        self.report(mistake, detail)
        raise CheckFailed(f"{mistake}: {detail}")

    def stop(self) -> NoReturn:
        """Stop a check that has already recorded why it fails."""
        raise CheckFailed("; ".join(", ".join(f.explanations[0]) for f in self.record.findings))

    def require(self, reply: Reply) -> Answer:
        """The answer, or stop the check with the failure named (crash, timeout, ...)."""
        if isinstance(reply, Failure):
            self.record.findings.append(status_finding(self.context, reply))
            self.stop()
        return reply

    # --- the whole check -----------------------------------------------------------------------

    def expect(self, request: Request, *, tame: Request | None = None, batched: bool = False,
               names: Sequence[str] = (), student: Reply | None = None) -> Answer | None:
        """The student's answer if it is right (alone, or with stand-ins for its dependencies), else None.

        `tame`: the same question on small numbers (the reference answers both alike), asked when
        the answer overflows. `batched`: the request has batch dimensions; a wrong answer is also
        asked for its first 2-D slice. `names`: the outputs' names for feedback. `student`: the student's
        reply to `request`, when the check has asked already (to read a layer's make-up first).
        """
        reference = self.reference(request)
        names = names or default_names(reference)
        if self.probe.records:  # a handout records the follow-up questions' answers too
            for follow_up in ([tame] if tame else []) + ([sliced(request)] if batched else []):
                self.reference(follow_up)
        student = self.run(request) if student is None else student
        case = Case(self.probe, self.memory, self.record, request, student, reference, names, tame, batched)
        before = len(self.record.findings)
        diagnose(case)
        if case.values and case.answer is None:  # wrong, with numbers: evidence for the exercise's other answers
            self.memory.exercise.questions.append(Question(case.request, case.values, case.expected,
                                                           tuple(self.record.findings[before:]),
                                                           case.generic(case.values, case.expected)))
        if reference.returned is not None:
            self.memory.remember(numbers_key(request), reference_values(reference.returned))
        return case.answer
