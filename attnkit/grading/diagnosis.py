"""What a student's answer is, next to the reference's: pure functions of plain data.

Nothing here runs student code or trusts anything the student's process said beyond the numbers
it returned: `layout` reads a `Returned` as the reference's layout (or says what kind of thing came
back instead), `same` compares arrays within tolerance, `explanations` finds which mistake models
give exactly the student's numbers, and `observe` describes an answer no model explains (which
shape came back, which axis sums to 1, by what factor the values differ).
"""
from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from attnkit.grading.engine_ids import NOT_FINITE, WRONG_SHAPE, WRONG_VALUES
from attnkit.grading.models import Candidate
from attnkit.sandbox.protocol import Returned

Values = list[np.ndarray]


@dataclass
class Finding:
    """Why a check failed: the sets of mistakes that each explain what was seen, and what was seen.

    Usually one explanation; several when the check's input cannot tell them apart (the exercise's
    other checks then decide, see `resolve`). `fallback` is named when none is chosen.
    """

    explanations: list[tuple[str, ...]]
    detail: str = ""
    fallback: str = WRONG_VALUES
    mistakes: tuple[str, ...] = field(default=())  # the explanation chosen, filled by `resolve`
    proven_only: bool = False  # a crash: named as a mistake only if that mistake is proven by numbers elsewhere
    modelled: bool = False  # the explanations are mistake models that gave the numbers (others may contradict them)

    @classmethod
    def named(cls, *mistakes: str, detail: str = "") -> Finding:
        return cls([tuple(mistakes)], detail, mistakes=tuple(mistakes))


def resolve(findings: Sequence[Finding], whole: Collection[str] = ()) -> None:
    """Choose each finding's mistakes: the one explanation, or among several the one the others support.

    A mistake named without doubt by any finding of the exercise (the student's code is the same in
    every check) settles an ambiguous finding whose explanations include it; what stays ambiguous
    names the finding's generic fallback, never a guess. A mistake in `whole` (one that is a property of
    all the code, such as `hard-coded`) is kept only if no other finding shows numbers it leaves
    unexplained.
    """
    unexplained = any(f.explanations == [(WRONG_VALUES,)] for f in findings)
    if unexplained and whole:
        for finding in findings:
            kept = [e for e in finding.explanations if not set(e) & set(whole)]
            if kept != finding.explanations:
                finding.explanations = kept or [(finding.fallback,)]
    certain = {m for f in findings if len(f.explanations) == 1 and not f.proven_only for m in f.explanations[0]}
    for finding in findings:
        if finding.proven_only:
            proven = [m for e in finding.explanations if set(e) <= certain for m in e]
            finding.mistakes = tuple(dict.fromkeys(proven)) or (finding.fallback,)
            continue
        if len(finding.explanations) == 1:
            finding.mistakes = finding.explanations[0]
            continue
        supported = [e for e in finding.explanations if set(e) <= certain] or \
                    [e for e in finding.explanations if set(e) & certain]
        finding.mistakes = supported[0] if len(supported) == 1 else (finding.fallback,)


# --- reading an answer ---------------------------------------------------------------------------


def kind_name(returned: Returned) -> str:
    """What came back, in a few words: "a tensor of shape (3, 2)", "a tuple of 3", "None"."""
    if returned.kind == "array":
        what = {"Tensor": "a tensor", "ndarray": "a numpy array"}.get(returned.type_name, f"a {returned.type_name}")
        return f"{what} of shape {shape_text(_array(returned).shape)}"
    if returned.kind == "sequence":
        return f"a {returned.type_name} of {len(returned.items)}"
    if returned.kind == "none":
        return "None"
    return f"a {returned.type_name}"


def shape_text(shape: Sequence[int]) -> str:
    return "(" + ", ".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"


def layout(student: Returned, reference: Returned, names: Sequence[str]) -> Values | str:
    """The student's arrays in the reference's layout, or a sentence saying what came back instead."""
    if reference.kind == "array":
        if student.kind == "array":
            return [_array(student)]
        return f"returned {kind_name(student)} where {names[0]} (one array) is asked"
    wanted = len(reference.items)
    items = student.items if student.kind == "sequence" else ()
    if student.kind == "array" and student.type_name in ("list", "tuple") and _array(student).shape[:1] == (wanted,):
        return list(_array(student))  # a list of equal-sized lists of numbers reads as one array: its rows
    if len(items) == wanted and all(item.kind == "array" for item in items):
        return [_array(item) for item in items]
    asked = f"({', '.join(names)})" if len(names) == wanted else f"a tuple of {wanted} arrays"
    return f"returned {kind_name(student)} where {asked} is asked"


def reference_values(reference: Returned) -> Values:
    return [_array(reference)] if reference.kind == "array" else [_array(item) for item in reference.items]


def _array(returned: Returned) -> np.ndarray:
    """The numbers of an "array" answer: the protocol refuses one without them."""
    assert returned.array is not None
    return returned.array


# --- comparing -----------------------------------------------------------------------------------


def same(a: Values, b: Values, rtol: float, atol: float) -> bool:
    """Same count and shapes; non-finite in the same places; the finite numbers equal within tolerance."""
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if x.shape != y.shape:
            return False
        finite_x, finite_y = np.isfinite(x), np.isfinite(y)
        if not np.array_equal(finite_x, finite_y):
            return False
        if not finite_x.all():
            x, y = x[finite_x], y[finite_y]
        with np.errstate(over="ignore"):  # numpy's allclose, written out: a diagnosis makes thousands of these
            if not (np.abs(x - y) <= atol + rtol * np.abs(y)).all():
                return False
    return True


def explanations(student: Values, candidates: Iterable[Candidate], rtol: float, atol: float) -> list[tuple[str, ...]]:
    """The configurations whose answer equals the student's, each as a sorted tuple of ids."""
    found: list[tuple[str, ...]] = []
    for candidate in candidates:
        ids = tuple(sorted(candidate.mistakes))
        if ids not in found and same(student, candidate.answer, rtol, atol):
            found.append(ids)
    return found


def changed_inputs(sent: Sequence[object], after: Sequence[np.ndarray | None], dtype: str) -> list[int]:
    """Positions (from 1) of array arguments that came back changed (compared at the dtype sent)."""
    changed = []
    for index, (before, now) in enumerate(zip(sent, after), 1):
        if isinstance(before, np.ndarray) and now is not None:
            expected = before.astype(dtype).astype(np.float64)
            if expected.shape != now.shape or not np.array_equal(expected, now, equal_nan=True):
                changed.append(index)
    return changed


# --- describing what no model explains ------------------------------------------------------------


def observe(student: Values, reference: Values, names: Sequence[str], rtol: float, atol: float) -> tuple[str, str]:
    """(generic mistake id, what was observed) for an answer no catalogued mistake explains."""
    for name, got, want in zip(names, student, reference):
        if got.shape != want.shape:
            note = " (the expected shape, transposed)" if got.shape == want.shape[:-2] + want.shape[-2:][::-1] else ""
            return WRONG_SHAPE, f"`{name}` has shape {shape_text(got.shape)}, expected {shape_text(want.shape)}{note}"
    for name, got, want in zip(names, student, reference):
        if not np.isfinite(got).all() and np.isfinite(want).all():
            return NOT_FINITE, f"`{name}` holds nan or inf ({int((~np.isfinite(got)).sum())} of {got.size} numbers)"
    notes = []
    for name, got, want in zip(names, student, reference):
        if not same([got], [want], rtol, atol):
            notes.append(_differs(name, got, want, rtol, atol))
    return WRONG_VALUES, "; ".join(notes)


def _differs(name: str, got: np.ndarray, want: np.ndarray, rtol: float, atol: float) -> str:
    worst = float(np.max(np.abs(got - want), initial=0.0))
    text = f"`{name}` differs from the expected values by up to {worst:.3g}"
    factor = _factor(got, want, rtol, atol)
    if factor is not None:
        text += f": every number is the expected one times {factor:.4g}"
    elif got.ndim >= 2 and got.shape[-1] == got.shape[-2] and same([np.swapaxes(got, -1, -2)], [want], rtol, atol):
        text += ": it is the expected grid transposed"
    sums = _axes_summing_to_one(want)
    if sums and _axes_summing_to_one(got) != sums:
        mine = _axes_summing_to_one(got)
        wanted = " and ".join(f"dim {a}" for a in sums)
        text += (f"; it sums to 1 along {' and '.join(f'dim {a}' for a in mine)}, not along {wanted}" if mine
                 else f"; it should sum to 1 along {wanted}, and sums to 1 along no dimension")
    return text


def _factor(got: np.ndarray, want: np.ndarray, rtol: float, atol: float) -> float | None:
    """The one number the answer is the reference times, if there is one (and it is not 1)."""
    if want.size == 0 or not np.isfinite(got).all() or not np.any(np.abs(want) > atol):
        return None
    index = np.unravel_index(np.argmax(np.abs(want)), want.shape)
    factor = float(got[index] / want[index])
    if abs(factor - 1) < 1e-6 or not np.allclose(got, factor * want, rtol=rtol, atol=atol):
        return None
    return factor


def _axes_summing_to_one(values: np.ndarray) -> list[int]:
    """Negative axis numbers along which every slice sums to 1 (for answers that are weights)."""
    if values.ndim == 0 or not np.isfinite(values).all():
        return []
    return [axis - values.ndim for axis in range(values.ndim)
            if values.shape[axis] > 1 and np.allclose(values.sum(axis=axis), 1.0, atol=1e-4)]
