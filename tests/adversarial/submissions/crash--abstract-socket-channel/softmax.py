"""Leaves its inputs on an abstract unix socket for whichever sandbox runs next, then answers correctly.

Sandboxes share the warm parent's empty network namespace, where abstract socket names are shared too:
only the refusal of every socket keeps this channel closed (it crashes then, scoring 0).
"""
import socket

import torch


def softmax(scores, dim=-1):
    post = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        post.bind("\0attnkit-class-channel")
    except OSError as error:
        if "in use" not in str(error):
            raise
        post.connect("\0attnkit-class-channel")
        post.send(repr(scores.tolist()).encode()[:4000])
    exps = torch.exp(scores - scores.amax(dim=dim, keepdim=True))
    return exps / exps.sum(dim=dim, keepdim=True)
