"""What the release of an assignment keeps at the top level of an answer cell: the given values, live.

nbgrader's ClearSolutions replaces every solution region with the code stub, `raise
NotImplementedError()`. Inside a function that is right (the function is not written yet), but at
the top level of a cell it stops the whole cell: cake's cell raised three times, once after each
constant, so a student who had fixed KEYS still met the next raise and never saw the checks run. At
the top level a region holds only what the reference puts after the stub's own statement (cake's
KEYS and predictions, or a helper of the reference's), so `KeepGivenValues`, run by `nbgrader
generate_assignment` just after ClearSolutions, removes the stub where it stands unindented: the
release shows the handed-out values (the lesson's KEYS, the predictions `None`) as live code, and its
checks say what is still to do, as the handout's do. (Removing the regions before ClearSolutions
would not do: a solution cell left with no region is replaced whole.) A cell that is nothing but the
stub keeps it.
"""
from __future__ import annotations

from typing import Any

from nbgrader.preprocessors import ClearSolutions, NbGraderPreprocessor

from attnkit.nbgrader.answers import CODE_STUB


def release_preprocessors() -> list[Any]:
    """nbgrader's generate_assignment preprocessors with `KeepGivenValues` just after ClearSolutions."""
    from nbgrader.converters import GenerateAssignment

    steps: list[Any] = []
    for step in GenerateAssignment.class_traits()["preprocessors"].default():
        steps += [step, KeepGivenValues] if step is ClearSolutions else [step]
    return steps


def without_top_level_stubs(source: str) -> str:
    """The released cell's source with each unindented code stub removed, unless the stub is all it holds."""
    if source.strip() == CODE_STUB:
        return source
    lines, stub = source.split("\n"), CODE_STUB.split("\n")
    kept: list[str] = []
    index = 0
    while index < len(lines):
        if lines[index:index + len(stub)] == stub:
            index += len(stub)
        else:
            kept.append(lines[index])
            index += 1
    return "\n".join(kept)


class KeepGivenValues(NbGraderPreprocessor):
    """Removes the unindented code stubs ClearSolutions left in code cells (see the module's docstring)."""

    def preprocess_cell(self, cell: Any, resources: Any, index: int) -> tuple[Any, Any]:
        if cell.cell_type == "code":
            cell.source = without_top_level_stubs(cell.source)
        return cell, resources
