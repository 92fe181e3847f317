"""Exercise `attention`, a Keras chatbot's scaled_dot_product_attention (cyobero/datascience) in torch.

    matmul_qk = tf.matmul(query, key, transpose_b=True)
    depth = tf.cast(tf.shape(key)[-1], tf.float32)
    logits = matmul_qk / tf.math.sqrt(depth)
    attention_weights = tf.nn.softmax(logits, axis=-1)
    return tf.matmul(attention_weights, value)
"""
import torch


def attention(query, key, value, mask=None):
    matmul_qk = torch.matmul(query, key.transpose(-1, -2))

    depth = torch.tensor(key.shape[-1], dtype=torch.float32)
    logits = matmul_qk / torch.sqrt(depth)

    # add the mask zero out padding tokens
    if mask is not None:
        logits += (mask * -1e9)

    attention_weights = torch.softmax(logits, dim=-1)

    return torch.matmul(attention_weights, value)
