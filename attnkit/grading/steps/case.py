"""The wrong or right answer under diagnosis, handed from step to step, and what steps share to judge it."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from attnkit.grading.context import ExerciseContext
from attnkit.grading.diagnosis import Finding, changed_inputs, explanations, layout, observe, reference_values, same
from attnkit.grading.engine_ids import CRASH, MUTATES_INPUT, NOT_IMPLEMENTED, WRONG_TYPE
from attnkit.grading.memory import CheckRecord, StudentMemory
from attnkit.grading.probe import Probe, returned
from attnkit.sandbox.protocol import Answer, CallRequest, Failure, Reply, Request


@dataclass
class Case:
    """One question of one check: what was asked, what the student and the reference answered.

    Steps read it and may narrow it (the carried-forward step swaps in the answer given with stand-ins,
    the overflow step the answer on small numbers); `values` and `expected` are the answer's and the
    reference's numbers once the wrong-type step has laid them out. A step that settles the question sets
    `answer` when the student earns it.
    """

    probe: Probe
    memory: StudentMemory
    record: CheckRecord
    request: Request
    student: Reply
    reference: Answer
    names: Sequence[str]
    tame: Request | None = None
    batched: bool = False
    values: list[np.ndarray] = field(default_factory=list)
    expected: list[np.ndarray] = field(default_factory=list)
    answer: Answer | None = None

    @property
    def context(self) -> ExerciseContext:
        return self.probe.context

    def add(self, finding: Finding) -> None:
        self.record.findings.append(finding)

    def explanations(self, request: Request, values: list[np.ndarray], size: int,
                     within: Sequence[str] | None = None) -> list[tuple[str, ...]]:
        """The configurations of `size` mistakes (of `within`, if given) whose answer to `request` is `values`."""
        return explanations(values, self.probe.oracle.candidates(request, size, within), self.context.rtol,
                            self.context.atol)

    def generic(self, values: list[np.ndarray], expected: list[np.ndarray]) -> tuple[str, str]:
        """The generic id and what was seen, for numbers no model explains."""
        return observe(values, expected, self.names, self.context.rtol, self.context.atol)


def problem(context: ExerciseContext, request: Request, student: Reply, reference: Answer,
            names: Sequence[str]) -> str | None:
    """None when the answer is right and left its inputs alone; else a word on what is wrong."""
    if isinstance(student, Failure):
        return student.status
    values = layout(student.returned, returned(reference), names) if student.returned else "no answer"
    if isinstance(values, str):
        return WRONG_TYPE
    if not same(values, reference_values(returned(reference)), context.rtol, context.atol):
        return "values"
    if isinstance(request, CallRequest) and changed_inputs(request.args, student.inputs_after, request.dtype):
        return MUTATES_INPUT
    return None


def status_finding(context: ExerciseContext, failure: Failure) -> Finding:
    """not-implemented, crash, timeout, exited or malformed-reply, with what happened and where."""
    if failure.type == "ModuleNotFoundError" and failure.message.endswith(f".{context.function}'"):
        return Finding.named(NOT_IMPLEMENTED, detail=f"there is no exercises/{context.function}.py")
    if failure.status == CRASH:
        detail = f"{failure.type}: {failure.message}" if failure.type != "SyntaxError" else \
            f"SyntaxError: {failure.message}"
        detail += f" ({failure.where})" if failure.where else ""
    elif failure.status == NOT_IMPLEMENTED:
        detail = f"still raises NotImplementedError ({failure.where})" if failure.where else \
            "still raises NotImplementedError"
    else:
        detail = failure.message
    return Finding.named(failure.status, detail=detail)


def finite(values: list[np.ndarray]) -> bool:
    """Whether any number is finite: nan and inf alone say too little to name a mistake."""
    return any(np.isfinite(v).any() for v in values)
