"""Exercise `softmax`, the version asked about in Stack Overflow question 34968722.

    def softmax(x):
        \"\"\"Compute softmax values for each sets of scores in x.\"\"\"
        e_x = np.exp(x - np.max(x))
        return e_x / e_x.sum()

np.exp works on torch tensors; np.max does not, so the max is the tensor's own.
"""
import numpy as np


def softmax(x, dim=-1):
    """Compute softmax values for each sets of scores in x."""
    e_x = np.exp(x - x.max())
    return e_x / e_x.sum()
