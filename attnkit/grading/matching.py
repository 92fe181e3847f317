"""Comparing what a student's line bound with the lesson's steps, in the forms students hold them in.

Pure functions of plain data, used by attnkit/grading/locating.py (where the code goes wrong) and
attnkit/grading/mistake_lines.py (where a catalogued mistake is made). A binding matches a step as it
is, transposed, with batch dimensions folded into the rows, with a size-1 dimension added or dropped in
front, or as one row, one batch element or the first rows of it.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from attnkit.grading.diagnosis import same
from attnkit.grading.sources import Source
from attnkit.sandbox.protocol import Binding, Trace

MAX_SLICES = 64     # rows (or batch elements) of a step a binding is compared with

Step = tuple[str, np.ndarray]


def believable(bindings: Sequence[Binding], sources: dict[str, Source]) -> bool:
    """Every binding names a file the grader read and a line holding a statement there."""
    return all(b.file in sources and b.line in sources[b.file].statements for b in bindings)


def steps_matched(binding: Binding, steps: Sequence[Step], rtol: float, atol: float) -> dict[int, int]:
    """Each step the binding holds: 2 whole (in some form), 1 a part of it."""
    value = binding.value
    if value is None or value.size == 0:
        return {}
    found = {k: match(value, target, rtol, atol) for k, (_, target) in enumerate(steps)}
    return {k: how for k, how in found.items() if how}


def discount_parts(bindings: Sequence[Binding], matched: list[dict[int, int]]) -> list[dict[int, int]]:
    """A row that matches a step (a symmetric row of the lesson's example) is no evidence where another
    row bound on the same line under the same name matches nothing: that line computes a wrong step."""
    wrong_sites = {(b.file, b.line, b.name) for b, found in zip(bindings, matched)
                   if not found and b.value is not None and b.value.size > 1}
    return [{k: how for k, how in found.items() if how == 2 or (b.file, b.line, b.name) not in wrong_sites}
            for b, found in zip(bindings, matched)]


def matches(value: np.ndarray, target: np.ndarray, rtol: float, atol: float) -> bool:
    return bool(match(value, target, rtol, atol))


def match(value: np.ndarray, target: np.ndarray, rtol: float, atol: float) -> int:
    """The same numbers, in any of the forms a student's code holds a step in (see the module's docstring):
    2 the whole of it, 1 a part, 0 not."""
    if value.size <= 1 < target.size:
        return 0  # one number says too little (a total, a scale): right by chance as often as not
    if any(same([form], [target], rtol, atol) for form in _forms(value, target.shape)):
        return 2
    return 1 if _part_of(value, target, rtol, atol) else 0


def _forms(value: np.ndarray, shape: tuple[int, ...]) -> list[np.ndarray]:
    forms = []
    if value.shape == shape:
        forms.append(value)
    if value.ndim >= 2 and value.shape[:-2] + value.shape[:-3:-1] == shape:
        forms.append(np.swapaxes(value, -1, -2))
    if value.size == int(np.prod(shape)) and value.shape != shape and shape:
        # a size-1 dimension dropped or added in front broadcasts as before; dropped behind it does not (a
        # sum without keepdim), so those numbers are not the step's, whatever they are
        padded = _leading_ones_dropped(value.shape) == _leading_ones_dropped(shape)
        folded = value.ndim >= 2 and value.shape[-1] == shape[-1] and len(shape) > value.ndim
        if padded or folded:
            forms.append(value.reshape(shape))
    return forms


def _leading_ones_dropped(shape: tuple[int, ...]) -> tuple[int, ...]:
    while shape and shape[0] == 1:
        shape = shape[1:]
    return shape


def _part_of(value: np.ndarray, target: np.ndarray, rtol: float, atol: float) -> bool:
    """One row or batch element of the step (a loop's), or its first rows, or the first numbers of one of its
    rows (a table or a list a loop is filling)."""
    if value.ndim < target.ndim and target.shape[target.ndim - value.ndim:] == value.shape:
        parts = target.reshape((-1, *value.shape))[:MAX_SLICES]
        return any(same([value], [part], rtol, atol) for part in parts)
    if value.ndim == 1 and target.ndim >= 1 and 1 < value.shape[0] < target.shape[-1]:  # a row being filled
        rows = target.reshape(-1, target.shape[-1])[:MAX_SLICES, :value.shape[0]]
        return any(same([value], [row], rtol, atol) for row in rows)
    if value.ndim == target.ndim and value.ndim >= 1 and value.shape[1:] == target.shape[1:] \
            and 0 < value.shape[0] < target.shape[0]:
        return same([value], [target[:value.shape[0]]], rtol, atol)
    return False


def same_numbers(a: Binding, b: Binding) -> bool:
    return a.value is not None and b.value is not None and a.value.shape == b.value.shape and \
        bool(np.allclose(a.value, b.value, rtol=1e-5, atol=1e-7, equal_nan=True))  # float32 and float64 alike


# --- a second input: right on one input by coincidence rarely means right on two --------------------

Site = tuple[str, int, str]  # file, line, name


@dataclass(frozen=True)
class Witness:
    """The same code traced on another input (steps/located.py's `second_inputs`), with the model's steps
    and the inputs given on it: a line is right only where its numbers are right here too."""

    trace: Trace
    steps: Sequence[Step]
    inputs: Sequence[np.ndarray]


@dataclass(frozen=True)
class Testimony:
    """What a witness saw at each site: the steps some binding there holds (by name), and which sites hold
    an input; `unread` the sites whose numbers were too many to send (no evidence either way)."""

    steps: dict[Site, set[str]]
    given: set[Site]
    unread: set[Site]
    known: set[str]  # the steps the witness could hold (a step of one number on its input says nothing)
    numbers: dict[Site, float]  # the last plain number bound at each site, and the numbers the model declares
    declared: list[float]

    @classmethod
    def of(cls, witness: Witness, rtol: float, atol: float) -> Testimony:
        tensors = [(name, value) for name, value in witness.steps if value.size > 1]
        steps: dict[Site, set[str]] = {}
        given: set[Site] = set()
        unread: set[Site] = set()
        numbers: dict[Site, float] = {}
        for binding in witness.trace.bindings:
            site = (binding.file, binding.line, binding.name)
            held = steps.setdefault(site, set())
            if binding.value is None:
                unread.add(site)
                continue
            if binding.value.size == 1:
                numbers[site] = float(binding.value.reshape(()))
            held.update(tensors[k][0] for k in steps_matched(binding, tensors, rtol, atol))
            if any(matches(binding.value, given_input, rtol, atol) for given_input in witness.inputs):
                given.add(site)
        declared = [float(value.reshape(())) for _, value in witness.steps if value.size == 1]
        return cls(steps, given, unread, {name for name, _ in tensors}, numbers, declared)

    def refutes(self, site: Site, step: str) -> bool:
        """The site was bound on the witness's input, readably, and never held the step there."""
        return step in self.known and site in self.steps and site not in self.unread and step not in self.steps[site]

    def refutes_given(self, site: Site) -> bool:
        return site in self.steps and site not in self.unread and site not in self.given

    def undeclared(self, site: Site, rtol: float, atol: float) -> bool:
        """The site bound a number the model does not declare on the witness's input (nor one over one)."""
        return site in self.numbers and not declared(self.numbers[site], self.declared, rtol, atol)


def declared(value: float, numbers: Sequence[float], rtol: float, atol: float) -> bool:
    """One of the numbers the course's model declares (a size, a scale), or one over one of them."""
    return any(np.isclose(value, n, rtol, atol) or (value and np.isclose(1 / value, n, rtol, atol)) for n in numbers)


def testimonies(witnesses: Sequence[Witness], sources: dict[str, Source], rtol: float,
                atol: float) -> list[Testimony]:
    """What each believable witness saw (a witness naming what is not there is not heard)."""
    return [Testimony.of(w, rtol, atol) for w in witnesses if believable(w.trace.bindings, sources)]


def confirmed(bindings: Sequence[Binding], matched: list[dict[int, int]], steps: Sequence[Step],
              heard: Sequence[Testimony]) -> list[dict[int, int]]:
    """Each binding's steps, less those a witness saw its site not hold: numbers equal to a step's on one
    input by coincidence (a symmetric example, rows that tie) are not on another of other sizes."""
    if not heard:
        return matched
    return [{k: how for k, how in found.items()
             if not any(t.refutes((b.file, b.line, b.name), steps[k][0]) for t in heard)}
            for b, found in zip(bindings, matched)]
