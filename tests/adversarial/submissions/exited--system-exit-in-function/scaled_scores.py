"""Raises SystemExit from inside the graded function."""


def scaled_scores(Q, K):
    raise SystemExit(0)
