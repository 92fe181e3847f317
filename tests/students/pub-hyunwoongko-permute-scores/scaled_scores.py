"""Exercise `scaled_scores`, from hyunwoongko/transformer's ScaleDotProductAttention.

models/layers/scale_dot_product_attention.py:
    batch_size, head, length, d_tensor = k.size()
    k_t = k.transpose(2, 3)  # transpose
    score = (q @ k_t) / math.sqrt(d_tensor)  # scaled dot product
That is written for 4-D input; the lesson's Q and K are matrices, so K is flipped with permute(1, 0).
"""
import math


def scaled_scores(q, k):
    # 1. dot product Query with Key^T to compute similarity
    length, d_tensor = k.size(-2), k.size(-1)
    k_t = k.permute(1, 0)  # transpose
    score = (q @ k_t) / math.sqrt(d_tensor)  # scaled dot product
    return score
