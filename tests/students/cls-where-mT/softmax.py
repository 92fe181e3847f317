"""Exercise `softmax`: raise e to each score and divide by the total."""
import torch


def softmax(scores: torch.Tensor, dim: int = -1) -> torch.Tensor:
    peak = scores.max(dim=dim, keepdim=True).values
    # a row of all -inf (a fully masked query) would give -inf - -inf = nan: shift it by 0 instead
    peak = torch.where(torch.isfinite(peak), peak, torch.zeros_like(peak))
    e = (scores - peak).exp()
    total = e.sum(dim=dim, keepdim=True)
    return torch.where(total > 0, e / total, torch.zeros_like(e))
