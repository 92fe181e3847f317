"""The right numbers with the last two axes swapped: no model explained them, and the generic words would say
only "wrong shape" or "wrong values", where the student can be told the answer is right but transposed.

Named under the generic id the numbers show (`wrong-shape` where the grid is not square, `wrong-values`
where it is), so the contract's ids and the points are as before; only the words say more.
"""
from __future__ import annotations

import numpy as np

from attnkit.grading.diagnosis import Finding, same
from attnkit.grading.engine_ids import WRONG_SHAPE, WRONG_VALUES
from attnkit.grading.steps.case import Case


def transposed(case: Case) -> bool:
    rtol, atol = case.context.rtol, case.context.atol
    swapped = []
    for name, got, want in zip(case.names, case.values, case.expected):
        if got.shape == want.shape and same([got], [want], rtol, atol):
            continue
        if got.ndim < 2 or not _transposes(got, want, rtol, atol):
            return False  # some output is wrong another way: the generic words say how
        swapped.append((name, got.shape != want.shape))
    if not swapped:
        return False
    mistake = WRONG_SHAPE if any(reshaped for _, reshaped in swapped) else WRONG_VALUES
    which = " and ".join(f"`{name}`" for name, _ in swapped)
    case.add(Finding.named(mistake, detail=f"{which} holds the right numbers with its last two axes swapped "
                                           "(transposed): check which axis is rows and which is columns"))
    return True


def _transposes(got: np.ndarray, want: np.ndarray, rtol: float, atol: float) -> bool:
    flipped = np.swapaxes(got, -1, -2)
    return flipped.shape == want.shape and same([flipped], [want], rtol, atol)
