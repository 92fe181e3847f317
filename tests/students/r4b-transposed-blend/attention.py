"""Exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V."""
from .scaled_scores import scaled_scores
from .softmax import softmax


def attention(Q, K, V):
    weights = softmax(scaled_scores(Q, K), dim=-1)
    # I think of the blend column by column: output column c is V's column c
    # mixed by each query's weights, i.e. (Vᵀ Wᵀ)ᵀ, which is the same as W V
    output = (V.mT @ weights.mT).mT
    return output, weights
