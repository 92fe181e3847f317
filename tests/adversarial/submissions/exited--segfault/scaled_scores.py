"""Crashes the interpreter through ctypes."""
import ctypes


def scaled_scores(Q, K):
    return ctypes.string_at(0)
