"""What a student's answer means: pass, or the catalogued mistake that explains it.

Pure functions of plain data (the student's result, the reference's and the
variants'), so the verdict never depends on anything the student's code did in
its own process besides the numbers it returned.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from attnkit.grading.catalogue import Catalogue
from attnkit.grading.oracle import Evaluation

STATUS_MISTAKES = {"not-implemented", "crash", "timeout", "exited"}
OUTPUT_NAMES = {1: ["the result"], 2: ["output", "weights"]}


@dataclass(frozen=True)
class Finding:
    """A failed check: the mistake id, what was seen, and the exercise to blame if not this one."""

    mistake: str
    detail: str
    cause: str | None = None


@dataclass
class Context:
    """What the diagnosis needs to know beyond the numbers."""

    exercise: str
    catalogue: Catalogue
    rtol: float
    atol: float
    dependencies: dict[str, str] = field(default_factory=dict)  # exercise id -> module
    prior: dict[str, list[str]] = field(default_factory=dict)  # exercise id -> mistakes found


def values_match(a: list[np.ndarray], b: list[np.ndarray], rtol: float, atol: float) -> bool:
    """Same count, same shapes, equal within tolerance (nan where the other has nan)."""
    if len(a) != len(b):
        return False
    return all(
        x.shape == y.shape and bool(np.allclose(x, y, rtol=rtol, atol=atol, equal_nan=True)) for x, y in zip(a, b)
    )


def output_names(count: int) -> list[str]:
    return OUTPUT_NAMES.get(count, [f"result {i}" for i in range(count)])


def status_finding(student: dict[str, Any], context: Context) -> Finding:
    """not-implemented, crash, timeout or exited, blamed on a dependency when it raised there."""
    error = student.get("error", {})
    where = error.get("where", "")
    cause = next((dep for dep, module in context.dependencies.items() if where.startswith(f"{module}.py")), None)
    if student["status"] == "crash":
        detail = f"{error.get('type')}: {error.get('message')}" + (f" ({where})" if where else "")
    elif student["status"] == "not-implemented":
        detail = f"still raises NotImplementedError ({where})" if where else "still raises NotImplementedError"
    else:
        detail = error.get("message", "")
    return Finding(student["status"], detail, cause)


def forbidden_call(student: dict[str, Any], context: Context) -> Finding | None:
    for mistake in context.catalogue.for_exercise(context.exercise):
        used = [name for name in mistake.calls if name in student.get("calls", [])]
        if used:
            return Finding(mistake.id, f"your code called {used[0]}")
    return None


def mutated_input(student: dict[str, Any], request: dict[str, Any]) -> Finding | None:
    """The arguments after the call differ from what was sent (at the dtype they were sent as)."""
    dtype = np.dtype(request.get("dtype", "float64"))
    for index, (sent, after) in enumerate(zip(request.get("args", []), student.get("args_after", []))):
        if isinstance(sent, np.ndarray) and after is not None:
            before = sent.astype(dtype).astype(np.float64)
            if before.shape != after.shape or not np.array_equal(before, after, equal_nan=True):
                return Finding("mutates-input", f"argument {index + 1} was changed in place")
    return None


def same_outcome(student: dict[str, Any], answer: dict[str, Any], context: Context) -> bool:
    """Equal numbers, or the same crash word for word (exception type and message)."""
    if student["status"] == "crash":
        return answer["status"] == "crash" and all(
            answer["error"].get(key) == student["error"].get(key) for key in ("type", "message"))
    return answer["status"] == "ok" and values_match(student["value"], answer["value"], context.rtol, context.atol)


def matching_variant(student: dict[str, Any], evaluation: Evaluation, context: Context) -> Finding | None:
    """The catalogued mistake whose variant gives exactly the student's answer, or raises the same error.

    Order: a mistake already found in a dependency (so the blame goes there),
    then this exercise's own mistakes, then the dependencies' others (made inline).
    """

    def matches(mistake_id: str) -> bool:
        return any(same_outcome(student, r, context) for r in evaluation.variants.get(mistake_id, []))

    for dependency in context.dependencies:
        for mistake_id in context.prior.get(dependency, []):
            if matches(mistake_id):
                return Finding(mistake_id, "", cause=dependency)
    for mistake in context.catalogue.for_exercise(context.exercise):
        if matches(mistake.id):
            return Finding(mistake.id, "")
    for dependency in context.dependencies:
        for mistake in context.catalogue.for_exercise(dependency):
            if matches(mistake.id):
                return Finding(mistake.id, "")
    return None


def shape_or_value_finding(student: dict[str, Any], reference: dict[str, Any], context: Context) -> Finding:
    """The generic findings for an answer no variant explains."""
    names = output_names(len(reference["value"]))
    for name, got, want in zip(names, student["value"], reference["value"]):
        if got.shape != want.shape:
            return Finding("wrong-shape", f"`{name}` has shape {tuple(got.shape)}, expected {tuple(want.shape)}")
    for name, got, want in zip(names, student["value"], reference["value"]):
        if not np.isfinite(got).all() and np.isfinite(want).all():
            return Finding("not-finite", f"`{name}` holds nan or inf")
    worst = max(float(np.max(np.abs(g - w), initial=0.0)) for g, w in zip(student["value"], reference["value"]))
    return Finding("wrong-values", f"values differ from the expected ones by up to {worst:.3g}")


def diagnose(student: dict[str, Any], evaluation: Evaluation, request: dict[str, Any], context: Context) -> Finding | None:
    """None when the answer is right; otherwise the most specific finding.

    A crash that a catalogued variant reproduces (`.T` on a batched tensor, a
    grid of the wrong shape from a dependency) is named as that mistake.
    """
    if student["status"] == "crash":
        crash = status_finding(student, context)
        found = matching_variant(student, evaluation, context)
        return replace(found, detail=crash.detail) if found else crash
    if student["status"] != "ok":
        return status_finding(student, context)
    finding = forbidden_call(student, context) or mutated_input(student, request)
    if finding:
        return finding
    if values_match(student["value"], evaluation.reference["value"], context.rtol, context.atol):
        return None
    return matching_variant(student, evaluation, context) or shape_or_value_finding(
        student, evaluation.reference, context
    )
