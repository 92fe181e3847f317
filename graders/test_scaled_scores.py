"""Grader for exercise `scaled_scores`: steps 1 and 2, score and scale, Q Kᵀ / √d_k.

The sizes are chosen so that each catalogued mistake gives a different answer: n_q, n_k, d_k and
the batch sizes all differ, none is one more than another, none is a size of the lesson's example
(2 and 3, which code that only works there would use), and √d_k is no size (so √d_k, d_k, √n_q,
√n_k and the number of dimensions are all different numbers); a transposed grid has the wrong
shape; the batched checks have leading dimensions, where a 2-D-only transpose crashes or mixes them up.
"""
import numpy as np

from attnkit.grading.api import call


def scaled_scores(Q: np.ndarray, K: np.ndarray, dtype: str = "float32"):
    return call("scaled_scores", "scaled_scores", Q, K, dtype=dtype)


def test_lesson_scores(attempt, data):
    """the lesson's scores (cake's 2, 1, 2 and the others) divided by √2, also as a batch of two"""
    Q, K = data["queries"], data["keys"]
    attempt.expect(scaled_scores(Q, K))
    attempt.expect(scaled_scores(np.stack([Q, Q[::-1]]), np.stack([K, K[::-1]])), batched=True)


def test_non_square(attempt, rng):
    """4 queries against 11 keys of length d_k = 7: a (4, 11) grid divided by √7"""
    Q, K = rng.normal(size=(4, 7)), rng.normal(size=(11, 7))
    attempt.expect(scaled_scores(Q, with_orthogonal_key(Q, K)))


def with_orthogonal_key(Q: np.ndarray, K: np.ndarray) -> np.ndarray:
    """K with its first key at right angles to the first query: that score is 0, a sum of terms near 1 that
    cancel, where arithmetic that keeps 3 digits (half precision) is off by many times the tolerance on every
    draw, and float32's by a hundredth of it."""
    K = K.copy()
    K[0] -= (K[0] @ Q[0]) / (Q[0] @ Q[0]) * Q[0]
    return K


def test_batched_float64(attempt, rng):
    """leading batch dimensions (5, 8) pass through, float64 in"""
    Q, K = rng.normal(size=(5, 8, 7, 13)), rng.normal(size=(5, 8, 11, 13))
    attempt.expect(scaled_scores(Q, K, dtype="float64"), batched=True)
