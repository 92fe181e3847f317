"""Reads the request from the worker's frame, answers it right in a forged Answer, then returns zeros.

Its own code earns nothing (zeros); the forged Answer, computed by hand from the request with no
library softmax and claiming no calls, would earn everything if the grader took the first frame
for the reply and never noticed the worker's own reply behind it.
"""
import numpy
import torch

from .forgery import answer, current_request, forge


def _weights(scores, dim):
    exps = numpy.exp(scores - scores.max(axis=dim, keepdims=True))
    return exps / exps.sum(axis=dim, keepdims=True)


def softmax(scores, dim=-1):
    request = current_request()
    if request is not None and getattr(request, "function", "") == "softmax":
        sent = numpy.asarray(request.args[0], dtype=numpy.float64)
        forge(answer([_weights(sent, dim)], inputs_after=[sent.astype(request.dtype)]))
    return torch.zeros_like(scores)
