"""Exercise `normalise`: each token's numbers brought to mean 0 and variance 1.

A token's embedding is normalised on its own: its mean and its variance are taken over its own
numbers (the last dimension), never across tokens or sentences. Check it with
`attnkit check normalise`.
"""
import torch


def normalise(x: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:
    """(x - mean) / √(variance + eps), the statistics taken over the last dimension.

    x: (..., d), one token's embedding per row; the leading dimensions are batch dimensions.
    eps: a small number added to the variance, so a row whose numbers are all equal does not
    divide by zero.
    Returns a tensor of x's shape: every row with mean 0 and variance (nearly) 1.
    """
    # TODO(normalise): each row's mean over its own d numbers (dim=-1), kept
    # as a column (keepdim=True) so it subtracts from every number of its row.
    # TODO(normalise): each row's variance over the same numbers: the mean of
    # the squared distances from the mean (divide by d, not d - 1).
    # TODO(normalise): subtract the mean and divide by the square root of the
    # variance plus eps (eps inside the root).
    raise NotImplementedError("normalise: centre each row, then divide by its spread (see the TODOs)")
