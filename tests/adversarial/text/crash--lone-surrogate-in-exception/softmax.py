"""Raises an exception whose message holds a lone surrogate (a str Python allows, UTF-8 does not)."""


def softmax(scores, dim=-1):
    raise ValueError("half a character: \ud800, and its other half: \udfff")
