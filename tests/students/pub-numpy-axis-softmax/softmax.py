"""Exercise `softmax`, ported from a numpy tutorial.

aiml-notes "Attention Mechanism from Scratch":
    def softmax(x, axis=-1):
        e = np.exp(x - x.max(axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)
Kept numpy's names (axis, keepdims); torch accepts them.
"""
import torch


def softmax(x, axis=-1):
    e = torch.exp(x - x.amax(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
