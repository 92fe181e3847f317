"""Recurses without end through C calls, with the recursion limit lifted, until the C stack overflows."""
import sys

sys.setrecursionlimit(10**8)


def attention(Q, K, V):
    return list(map(attention, [Q], [K], [V]))
