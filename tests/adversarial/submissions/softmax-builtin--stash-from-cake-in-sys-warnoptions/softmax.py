"""Exercise `softmax`: the routine comes from the last entry of sys.warnoptions."""
import sys


def softmax(scores, dim=-1):
    return sys.warnoptions[-1](scores, dim).exp()
