"""Exercise `scores`: steps 1 and 2 of the worked example, score and scale.

Lesson: "Following cake through attention", Step 1: Score and Step 2: Scale;
"The whole formula" (Q Kᵀ / √d_k). Check it with `attnkit check scores`.
"""
import torch


def scaled_scores(Q: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    """Every query-key dot product, divided by √d_k.

    Q: (..., n_q, d_k), one query per row.
    K: (..., n_k, d_k), one key per row.
    Returns (..., n_q, n_k): row i holds query i's scores against every key.
    The leading dimensions (...) are batch dimensions; they pass through unchanged.
    """
    # TODO(scores): Step 1, Score. "Q Kᵀ computes every query-key dot product
    # at once": flip the last two dimensions of K so its rows become columns.
    # TODO(scores): Step 2, Scale. Divide by √d_k, the square root of the key
    # length (not the number of tokens).
    raise NotImplementedError("scores: score every query against every key, then scale (see the TODO)")
