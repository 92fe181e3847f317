"""Grader for exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V.

Outside the lesson's example the sizes all differ, none is one more than another, and none is a
size of the lesson's example (n_q, n_k, d_k, d_v), so a transposed grid or a blend along the wrong
axis shows in the shapes; the batched check is square (n_q = n_k), so flipped weights blend without
crashing, and it is asked again with large scores: one more dimension holding LARGE adds the same
amount to every score, which leaves the right weights unchanged while e^score overflows; its small
twin holds 0 there instead.
"""
import numpy as np

from attnkit.grading.api import call

LARGE = 60.0  # adds LARGE**2 / √d_k (over 1000 here) to every score: e^1000 overflows even float64
LIFT = 6.0
NAMES = ("output", "weights")


def attention(Q: np.ndarray, K: np.ndarray, V: np.ndarray, dtype: str = "float32"):
    return call("attention", "attention", Q, K, V, dtype=dtype)


def grown(x: np.ndarray, value: float) -> np.ndarray:
    """x with one more number at the end of each row."""
    return np.concatenate([x, np.full((*x.shape[:-1], 1), value)], axis=-1)


def test_lesson_outputs(attempt, data):
    """the lesson's outputs [7.2, 2.8], [4.0, 6.0], [6.0, 4.0] and their weights"""
    attempt.expect(attention(data["queries"], data["keys"], data["values"]), names=NAMES)


def test_non_square(attempt, rng):
    """4 queries, 11 keys of length d_k = 5, values of length d_v = 7"""
    # The last number of every query and key is LIFT: LIFT**2 / √5 (about 16) is added to every score, which
    # leaves the right weights as they are, while scores rounded to half precision move them many tolerances.
    Q, K = grown(rng.normal(size=(4, 4)), LIFT), grown(rng.normal(size=(11, 4)), LIFT)
    attempt.expect(attention(Q, K, rng.normal(size=(11, 7))), names=NAMES)


def test_batched_float64(attempt, rng):
    """a batch of 5, 8 queries and 8 keys of length 10, float64 in, then the same with large scores"""
    Q, K, V = rng.normal(size=(5, 8, 10)), rng.normal(size=(5, 8, 10)), rng.normal(size=(5, 8, 4))
    attempt.expect(attention(Q, K, V, dtype="float64"), batched=True, names=NAMES)
    large = attention(grown(Q, LARGE), grown(K, LARGE), V, dtype="float64")
    small = attention(grown(Q, 0.0), grown(K, 0.0), V, dtype="float64")
    attempt.expect(large, tame=small, names=NAMES)
