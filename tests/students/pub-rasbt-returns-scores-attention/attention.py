"""Exercise `attention`, the body of SelfAttention_v2.forward from "Build a LLM from scratch" ch. 3.

szhongren/build_mini_llm chapter3/self_attention_v2.py:
    attention_scores = queries @ keys.T  # omega
    attention_weights = torch.softmax(attention_scores / keys.shape[-1] ** 0.5, dim=-1)
    context_vectors = attention_weights @ values
(.T swapped for transpose(-2, -1) so batches work.)
"""
import torch


def attention(queries, keys, values):
    attention_scores = queries @ keys.transpose(-2, -1)  # omega
    attention_weights = torch.softmax(
        attention_scores / keys.shape[-1] ** 0.5, dim=-1
    )
    context_vectors = attention_weights @ values
    return context_vectors, attention_scores
