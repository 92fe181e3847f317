"""Exercise `scaled_scores`: steps 1 and 2, score and scale."""
import numpy as np
import torch


def scaled_scores(Q, K):
    # numpy is what I know best for matrix products; back to a tensor for the softmax
    q, k = Q.detach().numpy(), K.detach().numpy()
    return torch.from_numpy(np.matmul(q, np.swapaxes(k, -1, -2)) / np.sqrt(k.shape[-1])).to(Q.dtype)
