"""Exercise `scaled_scores`: steps 1 and 2 of the worked example, score and scale."""
import math

import torch


def scaled_scores(Q, K):
    d_k = K.shape[-1]

    # batch dimensions: do each matrix on its own
    if Q.dim() > 2:
        all_scores = []
        for q, k in zip(Q, K):
            all_scores.append(scaled_scores(q, k))
        return torch.stack(all_scores)

    rows = []
    for i in range(Q.shape[0]):          # every query
        row = []
        for j in range(K.shape[0]):      # against every key
            dot = 0
            for m in range(d_k):
                dot = dot + Q[i, m] * K[j, m]
            row.append(dot / math.sqrt(d_k))
        rows.append(torch.stack(row))
    return torch.stack(rows)
