"""Grader for exercise `scores`: steps 1 and 2, score and scale, Q Kᵀ / √d_k.

Outside the lesson's example the sizes all differ, none is one more than another, none is the
lesson's 2 or 3, none is the square of another, and √d_k is no whole number: so dividing by d_k,
by √d_k or not at all give three different grids, and K Qᵀ has the wrong shape (n_k, n_q).
The batched check has a batch dimension in front, which must pass through.
"""
import numpy as np

from attnkit.grading.api import call


def scaled_scores(Q: np.ndarray, K: np.ndarray, dtype: str = "float32"):
    return call("scores", "scaled_scores", Q, K, dtype=dtype)


def test_lesson_scores(attempt, data):
    """the lesson's scores (cake's 2, 1, 2 and the others) divided by √2"""
    attempt.expect(scaled_scores(data["queries"], data["keys"]))


def test_non_square(attempt, rng):
    """5 queries against 11 keys of length d_k = 7: a (5, 11) grid divided by √7"""
    attempt.expect(scaled_scores(rng.normal(size=(5, 7)), rng.normal(size=(11, 7))))


def test_batched_float64(attempt, rng):
    """a batch of 6: 8 queries against 10 keys of length 13, float64 in"""
    Q, K = rng.normal(size=(6, 8, 13)), rng.normal(size=(6, 10, 13))
    attempt.expect(scaled_scores(Q, K, dtype="float64"), batched=True)
