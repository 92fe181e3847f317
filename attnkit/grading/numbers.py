"""The plain numbers a wrong line reads (a size, a scale): which of them is where the code goes wrong.

Pure functions, used by attnkit/grading/locating.py. The course's model declares the numbers on the way
to a step (`d_k`, then `√d_k`, then the scale); a number the student's code computed on a line of its own
and a wrong line reads is the suspect where it is none of them on this input or a witness's, or one on
the way that the line uses as the scale; where it is the lesson's scale applied the wrong way round,
neither line is claimed (docs/diagnosis.md, "How a wrong answer is located", 4).
"""
from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from attnkit.grading.matching import Step, Testimony, declared
from attnkit.grading.sources import Source, names_read
from attnkit.sandbox.protocol import Binding


@dataclass(frozen=True)
class Numbers:
    """The plain numbers the model declares (a size, a scale), which of them a step is computed from
    directly (the last of a run of numbers: `√d_k` after `d_k`), and what the witnesses saw."""

    declared: list[float]
    final: list[float]
    heard: Sequence[Testimony] = ()
    data: Sequence[np.ndarray] = ()  # the inputs and the steps' tensors: the numbers a loop works through
    spoils: frozenset[str] = frozenset()  # the steps computed from a final number (the scale, from √d_k)

    @classmethod
    def of(cls, steps: Sequence[Step], inputs: Sequence[np.ndarray], heard: Sequence[Testimony]) -> Numbers:
        plain = [value.size == 1 for _, value in steps]
        declared = [float(value.reshape(())) for _, value in steps if value.size == 1]
        final = [float(steps[k][1].reshape(())) for k in range(len(steps))
                 if plain[k] and (k + 1 == len(steps) or not plain[k + 1])]
        spoils = frozenset(steps[k + 1][0] for k in range(len(steps) - 1) if plain[k] and not plain[k + 1])
        return cls(declared, final, heard, [*inputs, *(value for _, value in steps if value.size > 1)], spoils)


CONSTANT = re.compile(r"^[\w.]+\s*=\s*[\d.]+$")  # a name set to a plain number: a sum's start
ROOT = re.compile(r"sqrt|\*\* ?-?0?\.5|rsqrt")  # a line that takes a number's square root
READS_A_SIZE = {"size", "int", "float", "len", "dim"}  # calls that read a size off a shape, not arithmetic


def wrong_number_read(earlier: Sequence[Binding], source: Source, line: int, numbers: Numbers,
                       rtol: float, atol: float) -> Binding | None:
    """A number the wrong line (or a loop header around it) reads that is wrong, where it was computed on
    a line of its own: that line is where the code goes wrong. Wrong: none of the numbers the model
    declares (nor one over one), on this input or a witness's; or one declared on the way to a scale
    (`d_k`, where the scale is `√d_k`), computed or copied rather than read off a shape (`scale = d_k`).
    Never a loop's counter (an index, not a number the code computes), a sum's start, a number a loop
    works through (a dot product, one entry of a step or input) or a size
    the course declares nothing of (a course with no numbers)."""
    if not numbers.declared:
        return None
    for name in [n for header in source.headers.get(line, ()) for n in names_read(source, header)] + \
            names_read(source, line):
        held = next((b for b in reversed(earlier) if b.name == name and b.file == source.name
                     and source.statements[b.line] != line), None)
        if held is None or held.value is None or held.value.size != 1 or source.statements[held.line] in source.loops:
            continue
        value = float(held.value.reshape(()))
        site = (held.file, held.line, held.name)
        if (value == 0 and CONSTANT.match(source.statement(source.statements[held.line]))) or \
                (source.headers.get(held.line) and _an_entry(value, numbers.data, rtol, atol)):
            continue  # a sum's start (`dot = 0`), or one of the numbers a loop works through, not a size
        if not declared(value, numbers.declared, rtol, atol) or any(t.undeclared(site, rtol, atol)
                                                                     for t in numbers.heard):
            return held
        on_the_way = not declared(value, numbers.final, rtol, atol)
        if on_the_way and _computed(source, source.statements[held.line]) and not ROOT.search(source.statement(line)):
            return held
    return None


def scale_applied(culprit: Binding, earlier: Sequence[Binding], source: Source, line: int, steps: Sequence[Step],
                   numbers: Numbers, rtol: float, atol: float) -> Binding | None:
    """The number a wrong line applies, where the line's numbers are a step's times a constant and the number
    is the lesson's scale (√d_k, or one over it) computed on a line of its own: `scale = sqrt(d_k)` then
    `s * scale` (or `scale = 1 * sqrt(d_k)` then `s * scale`). The numbers cannot tell which of the two
    lines is wrong, so neither is claimed."""
    value = culprit.value
    if value is None:
        return None
    if not any(target.shape == value.shape and _a_multiple(value, target, rtol, atol) for _, target in steps):
        return None
    for name in names_read(source, line):
        held = next((b for b in reversed(earlier) if b.name == name and b.file == source.name
                     and source.statements[b.line] != line), None)
        if held is not None and held.value is not None and held.value.size == 1 and \
                declared(float(held.value.reshape(())), numbers.final, rtol, atol) and \
                _computed(source, source.statements[held.line]):
            return held
    return None


def _a_multiple(value: np.ndarray, target: np.ndarray, rtol: float, atol: float) -> bool:
    """`value` is `target` times one constant other than 1 (zeros where it has zeros)."""
    some = np.abs(target) > atol
    if not some.any() or not np.allclose(value[~some], 0.0, rtol, atol):
        return False
    ratio = value[some] / target[some]
    return bool(np.allclose(ratio, ratio[0], rtol, atol)) and not np.isclose(ratio[0], 1.0, rtol, atol)


def _an_entry(value: float, arrays: Sequence[np.ndarray], rtol: float, atol: float) -> bool:
    return any(np.isclose(value, array.ravel(), rtol, atol).any() for array in arrays)


def _computed(source: Source, line: int) -> bool:
    """The statement makes its number by arithmetic (`1.0 / head_dim`, `math.sqrt(d_k)`), not by reading a
    size off a shape (`width = keys.shape[-1]`, `keys.size(-1)`) or passing one on (`self.d_k = d_k`)."""
    try:
        tree = ast.parse(source.statement(line))
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp):
            return True
        if isinstance(node, ast.Call):
            called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if called not in READS_A_SIZE:
                return True
    return False
