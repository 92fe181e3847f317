"""Exercise `attention` (CHANDRASHEKHAR234/NLP tinaya.py), with my softmax instead of f.softmax.

    def attention(q,k,v):
        d = q.size(-1)
        scores = q @ k.transpose(-2,-1) / d**0.5
        attn = f.softmax(scores,dim=-1)
        return attn @ v, attn
"""
from .softmax import softmax


def attention(q, k, v):
    d = q.size(-1)
    scores = q @ k.transpose(-2, -1) / d**0.5
    attn = softmax(scores, dim=-1)
    return attn @ v, attn
