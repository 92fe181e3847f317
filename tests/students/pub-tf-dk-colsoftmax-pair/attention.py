"""Exercise `attention`, the rest of the same Keras function, calling my scaled_scores.

    attention_weights = tf.nn.softmax(logits, axis=-1)
    return tf.matmul(attention_weights, value)
"""
import torch

from .scaled_scores import scaled_scores


def attention(query, key, value):
    logits = scaled_scores(query, key)
    # keys were transposed into the second-to-last axis, so normalise there
    attention_weights = torch.softmax(logits, dim=-2)
    return torch.matmul(attention_weights, value), attention_weights
