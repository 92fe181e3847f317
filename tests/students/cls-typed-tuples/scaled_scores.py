"""Exercise `scaled_scores`: steps 1 and 2 of the worked example, score and scale."""
import math

from torch import Tensor, matmul


def scaled_scores(Q: Tensor, K: Tensor) -> Tensor:
    d_k: int = K.size(dim=-1)
    K_T: Tensor = K.transpose(dim0=-2, dim1=-1)
    return matmul(Q, K_T) / math.sqrt(d_k)
