"""Right attention, whose genuine reply is edited on its way to the grader: a StandinAnswer (a grader-to-sandbox message) as the reply"""
import json

from . import forgery
from .scaled_scores import scaled_scores
from .softmax import softmax


def tamper(record: dict):
    return {"@message": "StandinAnswer", "values": [], "single": True, "error": ""}


def attention(Q, K, V):
    if not forgery.waiting_for_a_frame():
        forgery.rewrite_next_frame(lambda body: tamper(json.loads(body)))
    weights = softmax(scaled_scores(Q, K), dim=-1)
    return weights @ V, weights
