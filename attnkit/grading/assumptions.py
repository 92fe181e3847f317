"""What a library call assumes of its inputs: the words that explain a crash on the line that raised.

A crash names its line already (docs/diagnosis.md); a student still has to work out why `torch.bmm` or
`.T` broke there. Each `Assumption` is one library fact, general to every course: the call (a pattern
on the line's code), the number of dimensions it takes (or the error text it raises), what it assumes
in words and what to use instead. `explain` picks the first that the line, the exception and the
shapes the line read (never their numbers) show was broken, and says it with the shape that broke it:
"`torch.bmm` takes 3-D tensors (one batch dimension in front); this check passes a batch of shape
(2, 3, 4, 5)". The shapes come from the trace of the student's own run; a shape equal to one of the
check's inputs is said as the check's ("this check passes"), which tells no hidden number.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from attnkit.grading.diagnosis import shape_text
from attnkit.sandbox.protocol import Failure

Shape = tuple[int, ...]


@dataclass(frozen=True)
class Assumption:
    """One library call's assumption: `call` (as the sentence starts with it), `pattern` (on the line's
    code), the numbers of dimensions it takes (None: any), or `raises` (a pattern on the error text) where
    the numbers of dimensions do not show it, what it `assumes` and what to `try` instead."""

    call: str
    pattern: str
    assumes: str
    try_instead: str
    ranks: frozenset[int] | None = None
    raises: str = ""

    def broken_by(self, code: str, message: str, shapes: Sequence[tuple[str, Shape]]) -> tuple[str, Shape] | None:
        """The name and shape that break the assumption on this line, if it is the one broken."""
        found = re.search(self.pattern, code)
        if found is None or (self.raises and not re.search(self.raises, message, re.IGNORECASE)):
            return None
        before = code[:found.start()]
        for name, shape in sorted(shapes, key=lambda item: not before.endswith(item[0])):  # `K.T`: K first
            if self.ranks is None or len(shape) not in self.ranks:
                return name, shape
        return None


DIMENSIONS = r"\b[0-9]-?D\b|dimension|\bdims?\b|matri|vector"  # an error about how many dimensions

ASSUMPTIONS = (
    Assumption("`torch.bmm`", r"\bbmm\(", "takes 3-D tensors (one batch dimension in front)",
               "`@` (torch.matmul) multiplies over any number of batch dimensions", frozenset({3}), DIMENSIONS),
    Assumption("`torch.mm`", r"\bmm\(", "takes 2-D matrices only", "`@` (torch.matmul) also takes batches",
               frozenset({2}), DIMENSIONS),
    Assumption("`.T`", r"\.T\b", "on a tensor of more than two dimensions reverses all its dimensions, not the "
               "last two", "`.transpose(-2, -1)` (or `.mT`) swaps the last two", frozenset({0, 1, 2})),
    Assumption("`.t()`", r"\.t\(\)", "takes tensors of at most two dimensions", "`.transpose(-2, -1)` swaps the "
               "last two of any tensor", frozenset({0, 1, 2}), DIMENSIONS),
    Assumption("`.transpose(0, 1)`", r"transpose\(\s*0\s*,\s*1\s*\)", "swaps the first two dimensions: with a "
               "batch in front, those are the batch and the rows", "`.transpose(-2, -1)` counts from the end",
               frozenset({0, 1, 2})),
    Assumption("`torch.dot`", r"torch\.dot\(|(?<!np)\.dot\(", "takes two 1-D vectors",
               "`@` multiplies matrices and batches", frozenset({1}), DIMENSIONS),
    Assumption("`torch.mv`", r"\bmv\(", "takes a matrix and a vector", "`@` multiplies matrices and batches",
               frozenset({1, 2}), DIMENSIONS),
    Assumption("`.view`", r"\.view\(", "needs a tensor laid out in one piece (a transposed one is not)",
               "`.reshape` copies where it must", raises=r"view size is not compatible|contiguous"),
    Assumption("A dimension counted from the front", r"(dim|axis)\s*=\s*[0-9]|\(\s*[0-9]\s*\)|,\s*[0-9]\s*\)",
               "means another dimension once a batch is in front", "count from the end (`dim=-1` for the last)",
               raises=r"dimension out of range|axis .* is out of bounds"),
    Assumption("`@`", r"@|matmul\(", "needs the last dimension of the left to equal the second-to-last of the "
               "right", "line the shapes up (a key is multiplied transposed: `K.transpose(-2, -1)`)",
               raises=r"cannot be multiplied|size mismatch|mismatch in its core dimension|must match the size"),
)


def explain(code: str, failure: Failure, shapes: Sequence[tuple[str, Shape]], inputs: Sequence[Shape]) -> str:
    """What the raising line's call assumed and the shape that broke it, or "" where no fact here says."""
    for assumption in ASSUMPTIONS:
        broken = assumption.broken_by(code, f"{failure.type}: {failure.message}", shapes)
        if broken is None:
            continue
        name, shape = broken
        subject = f"this check passes a batch of shape {shape_text(shape)}" if shape in inputs and len(shape) > 2 \
            else f"{name} has shape {shape_text(shape)} here"
        return f"{assumption.call} {assumption.assumes}; {subject}. {assumption.try_instead[0].upper()}" \
               f"{assumption.try_instead[1:]}."
    return ""


def shapes_read(names: Sequence[str], held: Mapping[str, Shape]) -> list[tuple[str, Shape]]:
    """The shapes the names a line reads held when it ran, tensors first (most dimensions first)."""
    found = [(name, held[name]) for name in dict.fromkeys(names) if name in held and len(held[name]) >= 1]
    return sorted(found, key=lambda item: -len(item[1]))
