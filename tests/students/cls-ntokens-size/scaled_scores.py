"""Exercise `scaled_scores`: steps 1 and 2 of the worked example, score and scale."""
import torch


def scaled_scores(Q: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    raw = torch.einsum("...id,...jd->...ij", Q, K)
    # scale so the scores do not grow with the sentence: sqrt of how many keys there are
    how_many = torch.tensor(K.size(-2), dtype=raw.dtype)
    return raw / how_many.sqrt()
