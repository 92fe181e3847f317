"""torch.mm, which takes matrices only, meets a batch."""
import math

import torch


def scaled_scores(Q, K):
    scores = torch.mm(Q, K.transpose(-2, -1))
    return scores / math.sqrt(K.shape[-1])
