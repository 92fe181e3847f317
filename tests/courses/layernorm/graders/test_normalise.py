"""Grader for exercise `normalise`: (x - mean) / √(variance + eps) over each row.

Outside the lesson's example there are more numbers a row than rows (and neither is one more than
the other), so statistics over the wrong dimension give other numbers, and dividing by d - 1 differs
from dividing by d by more than the tolerance. The hidden checks use an eps near the rows' variance
(rows drawn with spread 0.5, eps 0.5 and 0.2): eps left out, or added outside the square root, then
changes every number, where the lesson's eps of 1e-5 hides it. The batched check has a batch in front,
which must pass through, with more sentences than tokens.
"""
import numpy as np

from attnkit.grading.api import call


def normalise(x: np.ndarray, eps: float, dtype: str = "float32"):
    return call("normalise", "normalise", x, eps, dtype=dtype)


def test_lesson_rows(attempt, data):
    """the lesson's two embeddings: every row at mean 0 and variance 1"""
    attempt.expect(normalise(data["embeddings"], data["eps"]))


def test_large_eps(attempt, rng):
    """6 tokens of 9 numbers with a small spread, eps = 0.5 (inside the square root)"""
    attempt.expect(normalise(rng.normal(scale=0.5, size=(6, 9)), 0.5))


def test_batched_float64(attempt, rng):
    """a batch of 8 sentences, 5 tokens of 11 numbers, eps = 0.2, float64 in"""
    attempt.expect(normalise(rng.normal(scale=0.5, size=(8, 5, 11)), 0.2, dtype="float64"), batched=True)
