"""A wrong softmax (uniform weights) whose every reply carries one array the decoder cannot refuse cleanly.

inputs_after[0] is declared shape [1] with a payload of the right length (12 letters, as 8 bytes need)
but '==' padding where '=' belongs: it decodes to 7 bytes, and numpy's frombuffer raises ValueError,
not ProtocolError. The grader must still call it a malformed reply and give this student zeros.
"""
import json

import torch

from . import forgery


def tamper(body: bytes):
    record = json.loads(body)
    if record.get("@message") == "Answer" and record.get("inputs_after"):
        record["inputs_after"][0] = {"__ndarray__": [[1], "AAAAAAAAAA=="]}
    return record


def softmax(scores, dim=-1):
    if not forgery.waiting_for_a_frame():
        forgery.rewrite_next_frame(tamper)
    return torch.full_like(scores, 1.0 / scores.shape[dim])
