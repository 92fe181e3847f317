"""Right, after sleeping just under call_timeout on every call (computed inline: one nap per call)."""
import math
import time

import torch

NAP = 5.5


def attention(Q, K, V):
    time.sleep(NAP)
    weights = torch.softmax(Q @ K.transpose(-2, -1) / math.sqrt(K.shape[-1]), dim=-1)
    return weights @ V, weights
