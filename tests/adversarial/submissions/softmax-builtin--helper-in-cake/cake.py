"""Exercise `cake`, right, with a helper the softmax module borrows."""
import torch

QUERIES = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]]
KEYS = [[2.0, 0.0], [0.0, -3.0], [1.0, 1.0]]
PREDICTED_WEIGHTS = [0.49, 0.01, 0.49]
PREDICTED_OUTPUT = [7.4, 2.6]


def normalise(x, dim):
    return torch.softmax(x, dim)
