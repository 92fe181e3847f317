"""How each projection mistake shows in the numbers: the layer's computation with its switches.

Trusted grader code (see attnkit/grading/models.py); never handed out. `SelfAttention` takes the
layer's init arguments, the weights the grader set (by parameter name) and the input. Mistakes of
the layer's make-up (a bias, the wrong size, projections it does not own, a missing W_q) and of its
gradients are named by graders/test_projection.py from its structure and probes; what they do to
the numbers depends on weights the grader cannot know.
"""
import math

import torch

from .attention import attention

OWN_NAMES = {"attention-softmax-dim0": "projection-softmax-dim0"}


def SelfAttention(f, init, weights, x: torch.Tensor):
    d_model, d_k = init
    W_q, W_k, W_v = (weights[f"{name}.weight"] for name in ("W_q", "W_k", "W_v"))
    shared = f.choose("projection-shared-qk", None, ["keys from W_q", "queries from W_k"])
    if shared == "keys from W_q":
        W_k = W_q
    elif shared == "queries from W_k":
        W_q = W_k
    raw = f.choose("projection-no-projection", None, ["the embeddings", "their first d_k numbers"])
    if raw is None:
        Q, K, V = x @ W_q.T, x @ W_k.T, x @ W_v.T
    else:
        Q = K = V = x if raw == "the embeddings" else x[..., :d_k]
    Q, K, V = f.step("Q", Q), f.step("K", K), f.step("V", V)
    if f.on("projection-scale-by-d-model"):
        scores = Q @ K.transpose(-2, -1) / math.sqrt(d_model)
        weights = torch.softmax(scores, dim=f.choose("projection-softmax-dim0", -1, [0, -2]))
        return weights @ V, weights
    return attention(f.renamed(OWN_NAMES), Q, K, V)
