"""Exercise `attention`: the whole formula, softmax(Q Kᵀ / √d_k) V."""
import torch

from .scaled_scores import scaled_scores
from .softmax import softmax


def attention(Q, K, V):
    """Done the way the lesson follows cake: one token at a time."""
    *batch, n_q, d_k = Q.shape
    n_k, d_v = V.shape[-2], V.shape[-1]
    # any number of batch dimensions: treat them as one long list of sentences
    sentences = zip(Q.reshape(-1, n_q, d_k), K.reshape(-1, n_k, d_k), V.reshape(-1, n_k, d_v))
    outputs, grids = [], []
    for q_rows, keys, values in sentences:
        out_rows, weight_rows = [], []
        for q in q_rows:                                   # one query (token) at a time
            row = scaled_scores(q.unsqueeze(0), keys)[0]   # its n_k scaled scores
            w = softmax(row, dim=0)                        # a single row, so dim 0 is along the row
            weight_rows.append(w)
            out_rows.append(w @ values)                    # the weighted blend of the values
        outputs.append(torch.stack(out_rows))
        grids.append(torch.stack(weight_rows))
    output = torch.stack(outputs).reshape(*batch, n_q, d_v)
    weights = torch.stack(grids).reshape(*batch, n_q, n_k)
    return output, weights
