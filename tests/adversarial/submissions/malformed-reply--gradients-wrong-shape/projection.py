"""As gradients-left-out, but each gradient is replaced by a well-formed array of shape (2,): the grader's
comparison with the reference's (3, d_model) gradient must not raise (numpy broadcasting) and pass it.
Named for the honest mistake underneath (a cut graph); a malformed-reply verdict is as good.
"""
import json

from torch import nn

from . import forgery
from .attention import attention


def odd_grads(body: bytes):
    record = json.loads(body)
    layer = record.get("layer") if isinstance(record, dict) else None
    if isinstance(layer, dict) and layer.get("grads"):
        array = {"__ndarray__": [[2], "AAAAAAAA8D8AAAAAAADwPw=="]}  # [1.0, 1.0]
        layer["grads"] = {name: array for name in layer["grads"]}
    return record


class SelfAttention(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_k = nn.Linear(d_model, d_k, bias=False)
        self.W_v = nn.Linear(d_model, d_k, bias=False)

    def forward(self, x):
        if not forgery.waiting_for_a_frame():
            forgery.rewrite_next_frame(odd_grads)
        Q, K, V = self.W_q(x).detach(), self.W_k(x).detach(), self.W_v(x).detach()
        return attention(Q, K, V)
