"""Grader for exercise `softmax`: raise e to each score and divide by the total.

The grids' rows and columns differ (a softmax along the wrong axis shows in the numbers), one
hidden grid is square (a sum without keepdim broadcasts silently only there), a batch is asked
along dim=-1 and dim=1, and large scores are asked with a small twin (the same scores shrunk to
within ±5): a softmax that is right on the twin and overflows on the large ones is unstable; one large
grid is square, so an overflow shows beside a missing keepdim too.
"""
import numpy as np

from attnkit.grading.api import call


def softmax(scores: np.ndarray, dim: int = -1, dtype: str = "float32"):
    return call("softmax", "softmax", scores, dim, dtype=dtype)


def expect_large(attempt, scores: np.ndarray, dtype: str = "float32") -> None:
    """Large scores, and the same scores shrunk to within ±5 when they overflow."""
    attempt.expect(softmax(scores, dtype=dtype), tame=softmax(scores * 5 / np.abs(scores).max(), dtype=dtype))


def test_lesson_weights(attempt, data):
    """cake's weights on the lesson's scaled scores"""
    attempt.expect(softmax(data["scaled_scores"]))


def test_rows_sum_to_one(attempt, rng):
    """each row of weights sums to 1 on a non-square grid, and on the lesson's large scores [1000, 0, 0]"""
    attempt.expect(softmax(rng.normal(size=(4, 6))))
    expect_large(attempt, np.array([[1000.0, 0.0, 0.0], [0.0, 1000.0, 2.0]]))


def test_random_batched(attempt, rng):
    """batched scores along dim=-1 and dim=1, and a square grid"""
    scores = rng.normal(scale=2.0, size=(2, 3, 5))
    attempt.expect(softmax(scores, -1))
    attempt.expect(softmax(scores, 1))
    attempt.expect(softmax(rng.normal(scale=2.0, size=(5, 5))))


def test_large_scores_and_float64(attempt, rng):
    """large scores stay finite, float64 in"""
    expect_large(attempt, rng.normal(size=(3, 4)) * 50 + 1000, dtype="float64")  # e^1000 overflows even float64
    # square too: a sum without keepdim crashes on the grids above, which would hide an overflow beside it
    expect_large(attempt, rng.normal(size=(4, 4)) * 50 + 1000)
