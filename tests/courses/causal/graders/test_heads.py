"""Grader for exercise `heads`: causal attention in several heads, split and merged.

Outside the lesson's example the sizes all differ, none is one more than another, none is the
lesson's 2 or 3, none is the square of another, and each head's d_k is no square: the number of
heads, the tokens and each head's widths differ, so splitting with a bare reshape (tokens and
features mixed up), merging with a bare reshape, and averaging the heads' weights each give
different numbers (or shapes). Values are drawn at random.
"""
import numpy as np

from attnkit.grading.api import call

NAMES = ("output", "weights")


def multi_head(Q: np.ndarray, K: np.ndarray, V: np.ndarray, n_heads: int, dtype: str = "float32"):
    return call("heads", "multi_head", Q, K, V, n_heads, dtype=dtype)


def test_lesson_two_heads(attempt, data):
    """the lesson's three tokens in two heads of one number each"""
    attempt.expect(multi_head(data["queries"], data["keys"], data["values"], 2), names=NAMES)


def test_four_heads(attempt, rng):
    """13 tokens in 4 heads, each with keys of length 7 and values of length 11"""
    Q, K, V = rng.normal(size=(13, 28)), rng.normal(size=(13, 28)), rng.normal(size=(13, 44))
    attempt.expect(multi_head(Q, K, V, 4), names=NAMES)


def test_batched_float64(attempt, rng):
    """a batch of 6 sentences of 10 tokens in 4 heads (keys of length 13, values of length 8 a head), float64 in"""
    Q, K, V = rng.normal(size=(6, 10, 52)), rng.normal(size=(6, 10, 52)), rng.normal(size=(6, 10, 32))
    attempt.expect(multi_head(Q, K, V, 4, dtype="float64"), batched=True, names=NAMES)
