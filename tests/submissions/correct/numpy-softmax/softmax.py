import numpy as np
import torch


def softmax(scores, dim=-1):
    array = scores.detach().numpy()
    exps = np.exp(array - array.max(axis=dim, keepdims=True))
    return torch.from_numpy(exps / exps.sum(axis=dim, keepdims=True))
