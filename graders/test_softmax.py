"""Grader for exercise `softmax`: raise e to each score and divide by the total."""
import numpy as np

from attnkit.grading import lesson
from attnkit.grading.attempt import call


def softmax(scores: np.ndarray, dim: int = -1, dtype: str = "float32") -> dict:
    return call("softmax", "softmax", scores, dim=dim, dtype=dtype)


def test_lesson_weights(attempt):
    """cake's weights on the lesson's scaled scores"""
    attempt.expect(softmax(lesson.scaled_scores(lesson.QUERIES, lesson.KEYS)))


def test_rows_sum_to_one(attempt, rng):
    """each row of weights sums to 1 on a non-square grid"""
    attempt.expect(softmax(rng.normal(size=(4, 6))))


def test_random_batched(attempt, rng):
    """batched scores, softmax along dim=-1 and along dim=1"""
    scores = rng.normal(scale=2.0, size=(2, 3, 5))
    attempt.expect(softmax(scores, dim=-1))
    attempt.expect(softmax(scores, dim=1))


def test_large_scores_and_float64(attempt, rng):
    """large scores stay finite, float64 in"""
    scores = rng.normal(size=(3, 4)) * 50 + 1000  # e^1000 overflows even float64 (its limit is about e^709)
    attempt.expect(softmax(scores, dtype="float64"))
