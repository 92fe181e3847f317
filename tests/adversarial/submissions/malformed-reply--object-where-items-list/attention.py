"""Right attention, whose genuine reply is edited on its way to the grader: an item whose items are an object, not a list"""
import json

from . import forgery
from .scaled_scores import scaled_scores
from .softmax import softmax


def tamper(record: dict):
    record["returned"]["items"][0]["items"] = {"0": record["returned"]["items"][1]}
    return record


def attention(Q, K, V):
    if not forgery.waiting_for_a_frame():
        forgery.rewrite_next_frame(lambda body: tamper(json.loads(body)))
    weights = softmax(scaled_scores(Q, K), dim=-1)
    return weights @ V, weights
