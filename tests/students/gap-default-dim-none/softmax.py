"""Exercise `softmax`: raise e to each score and divide by the total."""
import torch


def softmax(scores: torch.Tensor, dim: int | None = None) -> torch.Tensor:
    """Softmax along `dim`; with no dim, over the whole tensor (like a probability table)."""
    if dim is None:
        shifted = scores - scores.max()
        powers = torch.exp(shifted)
        return powers / powers.sum()
    shifted = scores - scores.amax(dim=dim, keepdim=True)
    powers = torch.exp(shifted)
    return powers / powers.sum(dim=dim, keepdim=True)
