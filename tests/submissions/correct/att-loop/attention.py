import math
import torch


def attention(Q, K, V):
    """One query at a time, as in the worked example, batch dims flattened."""
    d_k = K.shape[-1]
    q, k, v = Q.reshape(-1, *Q.shape[-2:]), K.reshape(-1, *K.shape[-2:]), V.reshape(-1, *V.shape[-2:])
    outs, weights = [], []
    for b in range(q.shape[0]):
        for i in range(q.shape[1]):
            scores = torch.stack([q[b, i] @ k[b, j] / math.sqrt(d_k) for j in range(k.shape[1])])
            w = torch.exp(scores - scores.max())
            w = w / w.sum()
            weights.append(w)
            outs.append(sum(w[j] * v[b, j] for j in range(k.shape[1])))
    n_q = Q.shape[-2]
    return (torch.stack(outs).reshape(*Q.shape[:-1], V.shape[-1]),
            torch.stack(weights).reshape(*Q.shape[:-2], n_q, K.shape[-2]))
