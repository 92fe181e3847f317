"""Right attention, whose genuine reply is edited on its way to the grader: the answer wrapped in twelve one-item sequences"""
import json

from . import forgery
from .scaled_scores import scaled_scores
from .softmax import softmax


def tamper(record: dict):
    returned = record["returned"]
    for _ in range(12):
        returned = {"kind": "sequence", "type_name": "tuple", "array": None, "dtype": "", "items": [returned],
                    "requires_grad": False}
    record["returned"] = returned
    return record


def attention(Q, K, V):
    if not forgery.waiting_for_a_frame():
        forgery.rewrite_next_frame(lambda body: tamper(json.loads(body)))
    weights = softmax(scaled_scores(Q, K), dim=-1)
    return weights @ V, weights
