"""Attention made of helpers from another file of the package."""
import math

from ._parts import dot_products, normalise


def attention(Q, K, V):
    d_k = K.shape[-1]
    scores = dot_products(Q, K)
    scaled = scores / math.sqrt(d_k)
    weights = normalise(scaled)
    blended = weights @ V
    return blended, weights
