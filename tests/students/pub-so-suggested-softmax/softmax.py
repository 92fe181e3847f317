"""Exercise `softmax`: the "suggested solution" quoted in Stack Overflow question 34968722.

    def softmax(x):
        \"\"\"Compute softmax values for each sets of scores in x.\"\"\"
        return np.exp(x) / np.sum(np.exp(x), axis=0)
"""
import torch


def softmax(x, dim=-1):
    """Compute softmax values for each sets of scores in x."""
    return torch.exp(x) / torch.sum(torch.exp(x), axis=0)
