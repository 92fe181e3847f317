"""The lesson's scale on a line of its own, multiplied where it divides: which line is wrong?"""
import math


def scaled_scores(Q, K):
    scale = math.sqrt(K.shape[-1])
    return Q @ K.transpose(-2, -1) * scale
