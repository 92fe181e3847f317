"""Grader for exercise `causal`: self-attention in which no token sees a later one.

Outside the lesson's example the sizes all differ, none is one more than another, none is the
lesson's 2 or 3, none is the square of another, and √d_k is no whole number; values are drawn at
random, so a mask on the wrong side of the diagonal, a mask filled with 0 and a mask applied after
the softmax give different weights. Queries and keys are as many as the tokens (self-attention),
so the weights are square: a mask only shows in the numbers.

One check compares nothing with the reference: it reads the student's own weights and names any
weight on a later token above the exercise's setting `future_weight_limit`.
"""
import numpy as np

from attnkit.grading.api import call

SETTINGS = {"future_weight_limit": 1e-6}  # a weight on a later token above this is a peek
NAMES = ("output", "weights")


def causal(Q: np.ndarray, K: np.ndarray, V: np.ndarray, dtype: str = "float32"):
    return call("causal", "causal_attention", Q, K, V, dtype=dtype)


def returned_weights(answer) -> np.ndarray | None:
    """The second array of the pair the student returned, or None when it returned no such pair
    (the other checks name that)."""
    items = getattr(answer.returned, "items", None) or ()
    weights = getattr(items[1], "array", None) if len(items) == 2 else None
    return weights if isinstance(weights, np.ndarray) and weights.ndim >= 2 else None


def test_lesson_weights(attempt, data):
    """eggless sees itself only, chocolate eggless and itself, cake everyone: weights and outputs"""
    attempt.expect(causal(data["queries"], data["keys"], data["values"]), names=NAMES)


def test_one_sentence(attempt, rng):
    """one sentence of 7 tokens, keys of length d_k = 10, values of length 4"""
    Q, K, V = rng.normal(size=(7, 10)), rng.normal(size=(7, 10)), rng.normal(size=(7, 4))
    attempt.expect(causal(Q, K, V), names=NAMES)


def test_batched_float64(attempt, rng):
    """a batch of 5 sentences of 8 tokens, d_k = 11, values of length 13, float64 in"""
    Q, K, V = rng.normal(size=(5, 8, 11)), rng.normal(size=(5, 8, 11)), rng.normal(size=(5, 8, 13))
    attempt.expect(causal(Q, K, V, dtype="float64"), batched=True, names=NAMES)


def test_no_weight_on_later_tokens(attempt, rng, settings):
    """no token gives any weight to a later token (4 sentences of 11 tokens)"""
    Q, K, V = rng.normal(size=(4, 11, 6)), rng.normal(size=(4, 11, 6)), rng.normal(size=(4, 11, 8))
    weights = returned_weights(attempt.require(attempt.run(causal(Q, K, V, dtype="float64"))))
    if weights is None:
        attempt.fail("wrong-type", "return the pair (output, weights): the weights are the second of the two")
    if weights.shape != (4, 11, 11):
        attempt.fail("wrong-shape", f"the weights have shape {weights.shape}, expected one (11, 11) grid a sentence")
    peek = float(np.nan_to_num(np.abs(np.triu(weights, 1)), nan=np.inf).max())
    limit = settings["future_weight_limit"]
    if peek > limit:
        attempt.report("causal-attends-later",
                       f"a token gives weight {peek:.3g} to a later token (at most {limit:g} is allowed)")
