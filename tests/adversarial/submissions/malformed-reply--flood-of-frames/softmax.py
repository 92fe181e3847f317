"""Twenty thousand well-formed ok frames for every call, then the honest answer."""
import torch

from .forgery import encode_array, frame, hand_written_softmax, send


def softmax(scores, dim=-1):
    reply = {"status": "ok", "value": [encode_array(torch.zeros_like(scores).double().numpy())],
             "types": ["tensor of float32"], "calls": [], "args_after": [None]}
    send(frame(reply) * 20_000)
    return hand_written_softmax(scores, dim)
