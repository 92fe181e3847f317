"""The order of diagnosis: every step one check's question goes through, read top to bottom.

`Attempt.expect` asks the student and the reference one question, wraps both answers in a `Case` and hands
it to each step of `STEPS` in turn. A step is a function `step(case) -> bool`: it may record findings on
`case.record`, narrow the case for the steps after it, or set `case.answer` (the student earns the answer);
it returns True when the question is settled, and no later step runs. What a step may know of earlier
checks is `case.memory` (one `StudentMemory` per student); how it may ask more is `case.probe`.

To add a step: write one module here holding one function `name(case: Case) -> bool` (its docstring says
what it recognises and why it stands where it stands), then add that function as one line of `STEPS` at the
place where it must run. Steps before `wrong_type` may meet a crash (`case.student` a `Failure`); steps
after it may read `case.values` and `case.expected`. Test it in tests/test_steps.py.
"""
from __future__ import annotations

from collections.abc import Callable

from attnkit.grading.steps.batch_only import numbers_wrong_only_on_batches
from attnkit.grading.steps.carried_forward import carried_forward
from attnkit.grading.steps.case import Case
from attnkit.grading.steps.crashed import crashed
from attnkit.grading.steps.established import established
from attnkit.grading.steps.failing_dependency import failing_dependency
from attnkit.grading.steps.forbidden_names import forbidden_names
from attnkit.grading.steps.generic import generic
from attnkit.grading.steps.hard_coded import hard_coded
from attnkit.grading.steps.located import located
from attnkit.grading.steps.mistake_models import mistake_models
from attnkit.grading.steps.mutated_input import mutated_input
from attnkit.grading.steps.over_a_wrong_dependency import over_a_wrong_dependency
from attnkit.grading.steps.overflow_only import overflow_only
from attnkit.grading.steps.right_answer import right_answer
from attnkit.grading.steps.right_numbers import right_numbers
from attnkit.grading.steps.transposed import transposed
from attnkit.grading.steps.wrong_type import wrong_type

Step = Callable[[Case], bool]

STEPS: tuple[Step, ...] = (
    forbidden_names,               # uses of forbidden names, in the source or at run time (never settles)
    over_a_wrong_dependency,       # right through a dependency known wrong: earned as asked with stand-ins
    right_answer,                  # right and inputs left alone: earned
    carried_forward,               # right with correct stand-ins for its dependencies: carried, else judged so
    failing_dependency,            # no stand-ins possible (self-check): a failed dependency is the cause
    located,                       # where the wrong answer first goes wrong in the student's code (never settles)
    crashed,                       # a crash, timeout, ... or the mistake whose code cannot run on this input
    wrong_type,                    # the wrong kind or layout of answer; else its numbers are laid out
    mutated_input,                 # inputs changed in place (noted)
    right_numbers,                 # the numbers are right: nothing more to explain
    overflow_only,                 # wrong on large numbers, right (or finite) made small: overflow
    established,                   # what an earlier answer of this exercise proved, tried first
    mistake_models,                # one catalogued mistake, else two
    numbers_wrong_only_on_batches,  # right on one grid, wrong with batch dimensions
    hard_coded,                    # the right answer to other inputs
    transposed,                    # the right numbers with the last two axes swapped
    generic,                       # what was seen, under a generic id (always settles)
)


def diagnose(case: Case) -> None:
    """Hand the case to each step until one settles it."""
    for step in STEPS:
        if step(case):
            return


__all__ = ["STEPS", "Case", "Step", "diagnose"]
