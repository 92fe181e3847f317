"""Exercise `scaled_scores`, a Keras chatbot's scaled_dot_product_attention (cyobero/datascience).

    matmul_qk = tf.matmul(query, key, transpose_b=True)
    depth = tf.cast(tf.shape(key)[-1], tf.float32)
    logits = matmul_qk / tf.math.sqrt(depth)
"""
import torch


def scaled_scores(query, key):
    matmul_qk = torch.matmul(query, key.transpose(-1, -2))
    depth = key.shape[-1]
    logits = matmul_qk / depth
    return logits
