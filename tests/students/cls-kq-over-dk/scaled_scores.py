"""Exercise `scaled_scores`: steps 1 and 2 of the worked example, score and scale."""
import torch


def scaled_scores(Q: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    d_k = K.shape[-1]
    return K @ Q.mT / d_k
