"""Exercise `attention` as the TensorFlow tutorial lays it out, scores from my scaled_scores."""
import torch

from .scaled_scores import scaled_scores


def attention(q, k, v):
    scaled_attention_logits = scaled_scores(q, k)
    # softmax is normalized on the last axis (seq_len_k) so that the scores add up to 1
    attention_weights = torch.softmax(scaled_attention_logits, dim=-1)  # (..., seq_len_q, seq_len_k)
    output = torch.matmul(attention_weights, v)  # (..., seq_len_q, depth_v)
    return output, attention_weights
