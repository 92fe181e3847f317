import torch


def scaled_scores(Q, K):
    return (Q.unsqueeze(-2) * K.unsqueeze(-3)).sum(-1) / torch.tensor(K.shape[-1], dtype=Q.dtype).sqrt()
