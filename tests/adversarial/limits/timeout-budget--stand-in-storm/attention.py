"""Makes the grader do the work: with stand-ins in place, calls the softmax stand-in on a large array
again and again, each call answered by the reference in the trusted process.

With its own functions in place it answers uniform weights, so attention fails and the grader runs it
again with correct stand-ins (error carried forward). Then each stand-in call sends the grader 80 KB
to decode, compute on and answer (10,000 numbers: under the grader's cap on a stand-in call, which
refuses bigger ones outright), and it keeps calling while its wall time stays under call_timeout,
then answers right: every request costs seconds of the grader's time, until the budget is spent.
"""
import time

import torch

from .forgery import stand_in
from .scaled_scores import scaled_scores
from .softmax import softmax  # noqa: F401 (the name a stand-in replaces)

MOST_CALLS = 4000  # a request: enough to show what the grader spends, bounded so a test cannot hang
OWN_SECONDS = 4.0  # of wall time, under call_timeout (6 s in the test's course)
BIG = (100, 100)


def attention(Q, K, V):
    scores_in, softmax_in = stand_in(globals(), "scaled_scores"), stand_in(globals(), "softmax")
    if scores_in is None or softmax_in is None:
        scores = scaled_scores(Q, K)
        weights = torch.full_like(scores, 1.0 / scores.shape[-1])  # wrong on purpose: earns a rerun
        return weights @ V, weights
    big = torch.ones(BIG, dtype=torch.float64)
    started, calls = time.monotonic(), 0
    while calls < MOST_CALLS and time.monotonic() - started < OWN_SECONDS:
        softmax_in(big, dim=-1)
        calls += 1
    print(f"{calls} stand-in calls in {time.monotonic() - started:.1f} s")
    weights = softmax_in(scores_in(Q, K), dim=-1)
    return weights @ V, weights
