"""Exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V.

Lesson: "The whole formula", read from the inside out, and the four steps of
"Following “cake” through attention, number by number" (score, scale, softmax,
blend). Check it with `attnkit check attention`.
"""
import torch

from .scaled_scores import scaled_scores
from .softmax import softmax


def attention(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Blend the values with weights from the queries and keys.

    Q: (..., n_q, d_k), K: (..., n_k, d_k), V: (..., n_k, d_v); the leading
    dimensions (...) are batch dimensions that pass through unchanged.
    Returns (output, weights):
      output  (..., n_q, d_v): each query's blend of the values;
      weights (..., n_q, n_k): row i is query i's attention over the keys,
              and each row adds to 1.
    """
    # TODO(attention): Steps 1 and 2, score and scale: you wrote these in
    # scaled_scores.
    # TODO(attention): Step 3, Softmax "runs along each row, so each row of
    # weights adds to 1". Your softmax or torch.softmax may be used here.
    # TODO(attention): Step 4, Blend: "multiplying by V blends the values with
    # those weights". Return the output and the weights, in that order.
    raise NotImplementedError("attention: score, scale, softmax along each row, blend (see the TODO)")
