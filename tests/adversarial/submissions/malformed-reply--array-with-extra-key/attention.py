"""Right attention, whose genuine reply is edited on its way to the grader: an array object with a second key beside __ndarray__"""
import json

from . import forgery
from .scaled_scores import scaled_scores
from .softmax import softmax


def tamper(record: dict):
    record["returned"]["items"][0]["array"]["dtype"] = "float64"
    return record


def attention(Q, K, V):
    if not forgery.waiting_for_a_frame():
        forgery.rewrite_next_frame(lambda body: tamper(json.loads(body)))
    weights = softmax(scaled_scores(Q, K), dim=-1)
    return weights @ V, weights
