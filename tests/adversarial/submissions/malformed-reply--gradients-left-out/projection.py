"""SelfAttention whose projections are cut from the graph (no gradient reaches W_q, W_k, W_v), and whose
replies with gradients reach the grader with `layer.grads` emptied: a well-formed frame whose table
lacks the names the grader set. It must not earn the gradient check's point, nor stop the run.
"""
import json

from torch import nn

from . import forgery
from .attention import attention


def without_grads(body: bytes):
    record = json.loads(body)
    layer = record.get("layer") if isinstance(record, dict) else None
    if isinstance(layer, dict) and layer.get("grads"):
        layer["grads"] = {}
    return record


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_k = nn.Linear(d_model, d_k, bias=False)
        self.W_v = nn.Linear(d_model, d_k, bias=False)

    def forward(self, x):
        if not forgery.waiting_for_a_frame():
            forgery.rewrite_next_frame(without_grads)
        Q, K, V = self.W_q(x).detach(), self.W_k(x).detach(), self.W_v(x).detach()
        return attention(Q, K, V)
