"""Exercise `softmax`: raise e to each score and divide by the total."""
import numpy as np
import torch


def softmax(scores, dim=-1):
    # numpy is what I know best, so go there and come back
    a = scores.detach().cpu().numpy()
    a = a - a.max(axis=dim, keepdims=True)      # stability trick, does not change the answer
    e = np.exp(a)
    p = e / e.sum(axis=dim, keepdims=True)
    return torch.from_numpy(p)
