"""Right attention, whose genuine reply is edited on its way to the grader: the payload with one base64 letter swapped for a non-ASCII one of equal length"""
import json

from . import forgery
from .scaled_scores import scaled_scores
from .softmax import softmax


def tamper(record: dict):
    payload = record["returned"]["items"][0]["array"]["__ndarray__"][1]
    record["returned"]["items"][0]["array"]["__ndarray__"][1] = "\u00e9" + payload[1:]
    return record


def attention(Q, K, V):
    if not forgery.waiting_for_a_frame():
        forgery.rewrite_next_frame(lambda body: tamper(json.loads(body)))
    weights = softmax(scaled_scores(Q, K), dim=-1)
    return weights @ V, weights
