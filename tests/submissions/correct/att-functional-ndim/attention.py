import math
import torch.nn.functional as F


def attention(Q, K, V):
    scores = Q.matmul(K.transpose(-2, -1)) / math.sqrt(K.size(-1))
    weights = F.softmax(scores, dim=scores.ndim - 1)
    return weights.matmul(V), weights
