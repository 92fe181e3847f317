"""Grader for exercise `softmax`: raise e to each score and divide by the total.

The grids' rows and columns differ (a softmax along the wrong axis shows in the numbers), one
hidden grid is square (a sum without keepdim broadcasts silently only there), a batch is asked
along dim=-1 and dim=1, and large scores are asked with a small twin (the same scores shrunk to
within ±5): a softmax that is right on the twin and wrong on the large ones is unstable (overflow, or, on the
public grid, whose second row is small beside the first's 1000, a shift by the grid's max that lets that row
underflow); one large grid is square, so an overflow shows beside a missing keepdim too.

The hidden large scores are soft, not one-hot: each row is an offset near 1000 (e^1000 overflows even
float64) plus its own shuffle of evenly spaced scores a little jittered, so every row spreads over 4
units, whatever the draw. Large and spiky, every softmax-like answer is nearly one-hot and within the
tolerance of the right one by luck (base 2 instead of e, normalising by the row's maximum); soft, each
is many times the tolerance away on every draw (tests/test_margins.py proves it).
"""
import numpy as np

from attnkit.grading.api import call

SHIFT = 40.0  # added to every hidden random score: the right weights stay the same, lost precision shows


def softmax(scores: np.ndarray, dim: int | None = -1, dtype: str = "float32"):
    """The call softmax(scores, dim); with `dim` None, softmax(scores), as attention may call it: the contract's
    default dim=-1 is then the student's own, and a wrong default shows."""
    return call("softmax", "softmax", scores, *([] if dim is None else [dim]), dtype=dtype)


def expect_large(attempt, scores: np.ndarray, dtype: str = "float32", shift: bool = False) -> None:
    """Large scores, and a small twin asked when they overflow: the same scores shrunk to within ±5, or, with
    `shift`, moved down by their mean (the same right weights, so the twin is as soft as the scores)."""
    tame = scores - scores.mean() if shift else scores * 5 / np.abs(scores).max()
    attempt.expect(softmax(scores, dtype=dtype), tame=softmax(tame, dtype=dtype))


def soft_large(rng: np.random.Generator, rows: int, columns: int) -> np.ndarray:
    """Scores near 1000 whose rows are soft: offsets within ±10 of 1000 (a global shift stays finite), each row
    a shuffle of scores evenly spaced over 4 units, each jittered by at most 0.1."""
    spread = np.linspace(-2.0, 2.0, columns)
    rows_of_scores = [rng.permutation(spread) + rng.uniform(-0.1, 0.1, columns) for _ in range(rows)]
    return np.array(rows_of_scores) + rng.uniform(990.0, 1010.0, size=(rows, 1))


def test_lesson_weights(attempt, data):
    """cake's weights on the lesson's scaled scores, asked with dim=-1 and with no dim (its default)"""
    attempt.expect(softmax(data["scaled_scores"]))
    attempt.expect(softmax(data["scaled_scores"], None))


def test_rows_sum_to_one(attempt, rng):
    """each row of weights sums to 1 on a non-square grid, and on large scores (e^1000 overflows) beside a row of
    small ones (a row far below the grid's largest score must not vanish)"""
    attempt.expect(softmax(rng.normal(size=(4, 6))))
    expect_large(attempt, np.array([[1000.0, 0.0, 0.0], [0.0, 1.0, 2.0]]))


def test_random_batched(attempt, rng):
    """batched scores along dim=-1, dim=1 and the default dim, and a square grid"""
    # Around SHIFT, which leaves the right weights as they are: rounding scores to half precision (steps of
    # 1/32 there) moves the weights by many times the tolerance; float32 (steps of 4e-6) by a hundredth of it.
    scores = rng.normal(scale=2.0, size=(2, 3, 5)) + SHIFT
    attempt.expect(softmax(scores, -1))
    attempt.expect(softmax(scores, 1))
    attempt.expect(softmax(scores, None))
    attempt.expect(softmax(rng.normal(scale=2.0, size=(5, 5)) + SHIFT))


def test_large_scores_and_float64(attempt, rng):
    """large scores stay finite, float64 in"""
    expect_large(attempt, soft_large(rng, 3, 4), dtype="float64", shift=True)
    # square too: a sum without keepdim crashes on the grids above, which would hide an overflow beside it
    expect_large(attempt, soft_large(rng, 4, 4), shift=True)
