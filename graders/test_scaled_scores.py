"""Grader for exercise `scaled_scores`: steps 1 and 2, score and scale, Q Kᵀ / √d_k.

The sizes are chosen so that each catalogued mistake gives a different answer:
n_q, n_k and d_k all differ (a transposed grid has the wrong shape, and √d_k,
d_k, √n_q and √n_k are four different numbers), and the batched check has
two leading dimensions (a transpose of the whole tensor crashes or mixes them).
"""
import numpy as np

from attnkit.grading import lesson
from attnkit.grading.attempt import Request, call


def scaled_scores(Q: np.ndarray, K: np.ndarray, dtype: str = "float32") -> Request:
    return call("scaled_scores", "scaled_scores", Q, K, dtype=dtype)


def test_lesson_scores(attempt):
    """the lesson's scores (cake's 2, 1, 2 and the others) divided by √2"""
    attempt.expect(scaled_scores(lesson.QUERIES, lesson.KEYS))


def test_non_square(attempt, rng):
    """3 queries against 5 keys of length d_k = 7: a (3, 5) grid divided by √7"""
    attempt.expect(scaled_scores(rng.normal(size=(3, 7)), rng.normal(size=(5, 7))))


def test_batched_float64(attempt, rng):
    """leading batch dimensions (2, 3) pass through, float64 in"""
    Q, K = rng.normal(size=(2, 3, 4, 5)), rng.normal(size=(2, 3, 6, 5))
    attempt.expect(scaled_scores(Q, K, dtype="float64"))
