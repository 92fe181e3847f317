"""Exercise `normalise`: each token's numbers brought to mean 0 and variance 1."""
import torch


def normalise(x: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:
    """(x - mean) / √(variance + eps) over the last dimension; x is (..., d), so is the result."""
    mean = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True, unbiased=False)
    return (x - mean) / torch.sqrt(var + eps)
