"""Exercise `scaled_scores`: steps 1 and 2 of the worked example, score and scale.

Lesson: "Following “cake” through attention, number by number", Step 1: Score
and Step 2: Scale; "The whole formula" (Q Kᵀ / √d_k). Check it with
`attnkit check scaled_scores`.
"""
import torch


def scaled_scores(Q: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    """Every query-key dot product, divided by √d_k.

    Q: (..., n_q, d_k), one query per row.
    K: (..., n_k, d_k), one key per row.
    Returns (..., n_q, n_k): row i holds query i's scores against every key.
    The leading dimensions (...) are batch dimensions (there may be none, one
    or several); they pass through unchanged.
    """
    # TODO(scaled_scores): Step 1, Score. Dot every query with every key, all
    # at once: "Q Kᵀ computes every query-key dot product at once", where Kᵀ
    # is K flipped so its rows become columns. With batch dimensions in front,
    # flip only the last two dimensions of K.
    # TODO(scaled_scores): Step 2, Scale. Divide by √d_k, the square root of
    # the key length (the shapes above say which dimension that is; it is not
    # the number of tokens). In the worked example d_k = 2, so cake's scores
    # 2, 1, 2 become 1.414, 0.707, 1.414.
    raise NotImplementedError("scaled_scores: score every query against every key, then scale (see the TODO)")
