"""Exercise `softmax`: raise e to each score and divide by the total.

Lesson: "Following “cake” through attention, number by number", Step 3:
Softmax, and "The whole formula" (the softmax of a row of scores). Check it
with `attnkit check softmax`.
"""
import torch


def softmax(scores: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """Turn scores into positive weights that add up to 1 along `dim`.

    scores: a tensor of any shape, such as (n_q, n_k) or (batch, n_q, n_k).
    Returns a tensor of the same shape. Every slice along `dim` holds positive
    weights summing to 1; with the default dim=-1 that is each row, one
    query's weights over all the keys.
    """
    # TODO(softmax): Step 3, Softmax. Raise e to the power of each score, then
    # divide each result by the total of its own row: the slice along `dim`,
    # not the whole tensor. Keep the summed dimension so the division lines
    # up row by row.
    # TODO(softmax): stay finite on large scores such as [1000, 0, 0], where e
    # to the power of a score overflows. The short lesson's plain-Python
    # softmax shows a step that changes nothing mathematically and prevents it.
    # Write it yourself with torch operations (torch.softmax and F.softmax are
    # for the later exercises), and leave `scores` unchanged: no in-place edits.
    raise NotImplementedError("softmax: raise e to each score and divide by the total (see the TODO)")
