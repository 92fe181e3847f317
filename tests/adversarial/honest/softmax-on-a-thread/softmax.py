"""Honest: the lesson's arithmetic, done on a worker thread (threads are not a sign of anything)."""
from concurrent.futures import ThreadPoolExecutor

import torch


def _by_hand(scores, dim):
    exps = torch.exp(scores - scores.amax(dim=dim, keepdim=True))
    return exps / exps.sum(dim=dim, keepdim=True)


def softmax(scores, dim=-1):
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(_by_hand, scores, dim).result()
