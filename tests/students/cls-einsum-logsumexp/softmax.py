"""Exercise `softmax`: raise e to each score and divide by the total."""
import torch


def softmax(scores: torch.Tensor, dim: int = -1) -> torch.Tensor:
    # e^s / sum e^s  ==  exp(s - log(sum e^s)); logsumexp subtracts the max internally, so no overflow
    log_total = torch.logsumexp(scores, dim=dim, keepdim=True)
    return torch.exp(scores - log_total)
