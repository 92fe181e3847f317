"""A row of scores per query, appended in a loop; each row divided by d_k, not its root."""
import torch


def scaled_scores(Q, K):
    if Q.dim() > 2:
        return torch.stack([scaled_scores(q, k) for q, k in zip(Q, K)])
    rows = []
    for q in Q:
        rows.append(K @ q / K.shape[-1])
    return torch.stack(rows)
