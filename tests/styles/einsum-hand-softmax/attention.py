"""Attention with einsum for both products and a softmax written out by hand."""
import torch


def attention(Q, K, V):
    d = Q.size(-1)
    logits = torch.einsum("...qd,...kd->...qk", Q, K)
    logits = logits * d ** -0.5
    top = logits.max(dim=-1, keepdim=True).values
    unnormalised = (logits - top).exp()
    norm = unnormalised.sum(dim=-1, keepdim=True)
    attn = unnormalised / norm
    mixed = torch.einsum("...qk,...kv->...qv", attn, V)
    return mixed, attn
