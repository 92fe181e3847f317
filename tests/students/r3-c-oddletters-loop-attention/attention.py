"""Exercise `attention`: the whole formula."""
import torch

from .scaled_scores import scaled_scores
from .softmax import softmax


def attention(Q, K, V):
    if Q.dim() == 2:
        w = softmax(scaled_scores(Q, K), dim=-1)
        return torch.mm(w, V), w
    # batched: peel one leading dim at a time with a plain Python loop
    outs, ws = [], []
    for q, k, v in zip(Q, K, V):
        o, w = attention(q, k, v)
        outs.append(o)
        ws.append(w)
    return torch.stack(outs), torch.stack(ws)
