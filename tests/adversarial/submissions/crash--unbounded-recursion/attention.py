"""Recurses without end, with the recursion limit lifted."""
import sys

sys.setrecursionlimit(10**6)


def attention(Q, K, V):
    return attention(Q, K, V)
