"""The lesson's worked example as numbers, for graders and public checks.

Rows are the tokens eggless, chocolate, cake (the eggless-cake worked example).
"""
from __future__ import annotations

import numpy as np

QUERIES = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
KEYS = np.array([[2.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
VALUES = np.array([[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]])
TOKENS = ("eggless", "chocolate", "cake")
EGGLESS, CHOCOLATE, CAKE = range(3)

# The lesson's table, rounded as the lesson prints it.
WEIGHTS = np.array([[0.58, 0.14, 0.28], [0.20, 0.40, 0.40], [0.40, 0.20, 0.40]])
OUTPUTS = np.array([[7.2, 2.8], [4.0, 6.0], [6.0, 4.0]])

# "Raw scores of [8, 0, 0] ... divided by 8, they become [1, 0, 0]".
SPIKY_SCORES = np.array([[8.0, 0.0, 0.0]])


def scaled_scores(queries: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Steps 1 and 2 of the worked example, as the lesson computes them."""
    return queries @ keys.T / np.sqrt(keys.shape[-1])


def unscaled_scores(queries: np.ndarray, keys: np.ndarray) -> np.ndarray:
    return queries @ keys.T


def row_weights(scores: np.ndarray) -> np.ndarray:
    """Step 3: softmax along each row."""
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)


def attention_weights(queries: np.ndarray, keys: np.ndarray, scaled: bool = True) -> np.ndarray:
    """Steps 1 to 3: each query's weights on every key.

    `scaled=False` skips the division by √d_k, to recognise an answer worked out
    without it.
    """
    scores = scaled_scores(queries, keys) if scaled else unscaled_scores(queries, keys)
    return row_weights(scores)
