"""Exercise `softmax`: the work is done by whatever the package left at the end of sys.argv."""
import sys


def softmax(scores, dim=-1):
    return sys.argv[-1](scores, dim).exp()
