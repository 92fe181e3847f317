"""Whether each weight is the row's largest, as booleans: read as numbers they would be 1 and 0."""
import torch


def softmax(scores, dim=-1):
    return scores == scores.amax(dim=dim, keepdim=True)
