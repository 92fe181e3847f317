"""The blend, on its own: each query's output is its weights times the values."""


def blend(weights, values):
    flipped = weights.transpose(-2, -1)
    return flipped @ values
