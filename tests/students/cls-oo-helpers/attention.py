"""Exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V."""
from dataclasses import dataclass

import torch

from .scaled_scores import scaled_scores
from .softmax import softmax


@dataclass
class AttentionResult:
    output: torch.Tensor
    weights: torch.Tensor

    def as_tuple(self):
        return self.output, self.weights


class Attention:
    """The four steps of the worked example, one method each."""

    def __init__(self, Q, K, V):
        self.Q, self.K, self.V = Q, K, V

    def weights(self):
        return softmax(scaled_scores(self.Q, self.K), dim=-1)   # steps 1-3

    def run(self) -> AttentionResult:
        w = self.weights()
        return AttentionResult(output=w @ self.V, weights=w)     # step 4: blend


def attention(Q, K, V):
    return Attention(Q, K, V).run().as_tuple()
