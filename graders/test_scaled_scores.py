"""Grader for exercise `scaled_scores`: steps 1 and 2, score and scale, Q Kᵀ / √d_k.

The sizes are chosen so that each catalogued mistake gives a different answer: n_q, n_k and d_k
all differ, none is one more than another, and √d_k is no size (so √d_k, d_k, √n_q, √n_k and the
number of dimensions are all different numbers); a transposed grid has the wrong shape; the batched
checks have leading dimensions, where a 2-D-only transpose crashes or mixes them up.
"""
import numpy as np

from attnkit.grading.attempt import call


def scaled_scores(Q: np.ndarray, K: np.ndarray, dtype: str = "float32"):
    return call("scaled_scores", "scaled_scores", Q, K, dtype=dtype)


def test_lesson_scores(attempt, data):
    """the lesson's scores (cake's 2, 1, 2 and the others) divided by √2, also as a batch of two"""
    Q, K = data["queries"], data["keys"]
    attempt.expect(scaled_scores(Q, K))
    attempt.expect(scaled_scores(np.stack([Q, Q[::-1]]), np.stack([K, K[::-1]])), batched=True)


def test_non_square(attempt, rng):
    """3 queries against 5 keys of length d_k = 7: a (3, 5) grid divided by √7"""
    attempt.expect(scaled_scores(rng.normal(size=(3, 7)), rng.normal(size=(5, 7))))


def test_batched_float64(attempt, rng):
    """leading batch dimensions (2, 3) pass through, float64 in"""
    Q, K = rng.normal(size=(2, 3, 5, 7)), rng.normal(size=(2, 3, 10, 7))
    attempt.expect(scaled_scores(Q, K, dtype="float64"), batched=True)
