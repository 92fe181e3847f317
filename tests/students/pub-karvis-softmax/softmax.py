"""Exercise `softmax` from a blog post's first softmax (karvis.tistory.com/21).

    def softmax(x):
        e_x = np.exp(x)
        return e_x / e_x.sum()
"""
import numpy as np


def softmax(x, dim=-1):
    e_x = np.exp(x)
    return e_x / e_x.sum()
