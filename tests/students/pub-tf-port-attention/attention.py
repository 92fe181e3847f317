"""Exercise `attention`, ported from the TensorFlow transformer tutorial.

BinhMinhs10/transformers_onnx transformer_tf_translation/scaled_dot_product_attention.py
(the tensorflow.org tutorial's function), with tf.* swapped for torch.
"""
import torch


def scaled_dot_product_attention(q, k, v, mask):
    """calculate the attention weight."""
    matmul_qk = torch.matmul(q, k.transpose(-1, -2))  # transpose_b=True

    # scale matmul_qk
    dk = torch.tensor(k.shape[-1], dtype=torch.float32)  # tf.cast(tf.shape(k)[-1], tf.float32)
    scaled_attention_logits = matmul_qk / torch.sqrt(dk)

    # add the mask to the scaled tensor
    if mask is not None:
        scaled_attention_logits += (mask * -1e9)

    # softmax is normalized on the last axis (seq_len_k) so that the score
    # add up to 1
    attention_weights = torch.softmax(scaled_attention_logits, axis=-1)  # (..., seq_len_q, seq_len_k)
    output = torch.matmul(attention_weights, v)  # (..., seq_len_q, depth_v)
    return output, attention_weights


def attention(Q, K, V):
    return scaled_dot_product_attention(Q, K, V, None)
