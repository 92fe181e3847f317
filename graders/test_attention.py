"""Grader for exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V.

Outside the lesson's example the sizes all differ (n_q != n_k, d_v != d_k), so a
transposed grid or a blend along the wrong axis shows in the shapes, and the
batched check also adds a large amount to every score, which only a stable
softmax survives.
"""
import numpy as np

from attnkit.grading import lesson
from attnkit.grading.attempt import Request, call

LARGE = 60.0  # adds LARGE**2 / √d_k (over 1300 here) to every score: e^1300 overflows even float64


def attention(Q: np.ndarray, K: np.ndarray, V: np.ndarray, dtype: str = "float32") -> Request:
    return call("attention", "attention", Q, K, V, dtype=dtype, outputs=2)


def with_large_scores(Q: np.ndarray, K: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Q and K with one more dimension holding LARGE, so every score of a row grows by the same amount.

    Softmax ignores an amount added to a whole row, so the right weights stay
    as they were (and every mistake still shows), while e^score overflows.
    """
    def grow(x: np.ndarray) -> np.ndarray:
        return np.concatenate([x, np.full((*x.shape[:-1], 1), LARGE)], axis=-1)

    return grow(Q), grow(K)


def test_lesson_outputs(attempt):
    """the lesson's outputs [7.2, 2.8], [4.0, 6.0], [6.0, 4.0] and their weights"""
    attempt.expect(attention(lesson.QUERIES, lesson.KEYS, lesson.VALUES))


def test_non_square(attempt, rng):
    """3 queries, 6 keys of length d_k = 5, values of length d_v = 4"""
    Q, K, V = rng.normal(size=(3, 5)), rng.normal(size=(6, 5)), rng.normal(size=(6, 4))
    attempt.expect(attention(Q, K, V))


def test_batched_float64(attempt, rng):
    """a batch of 2, float64 in, then the same with large scores"""
    Q, K, V = rng.normal(size=(2, 3, 6)), rng.normal(size=(2, 5, 6)), rng.normal(size=(2, 5, 4))
    attempt.expect(attention(Q, K, V, dtype="float64"))
    attempt.expect(attention(*with_large_scores(Q, K), V, dtype="float64"))
