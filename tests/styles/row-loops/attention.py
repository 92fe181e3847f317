"""Attention one query row at a time; batches are flattened first and put back at the end."""
import math

import torch


def attention(Q, K, V):
    lead = Q.shape[:-2]
    q_all = Q.reshape(-1, Q.shape[-2], Q.shape[-1])
    k_all = K.reshape(-1, K.shape[-2], K.shape[-1])
    v_all = V.reshape(-1, V.shape[-2], V.shape[-1])
    outputs, weight_tables = [], []
    for q_mat, k_mat, v_mat in zip(q_all, k_all, v_all):
        out_rows, weight_rows = [], []
        for q in q_mat:
            s = (k_mat @ q) / math.sqrt(k_mat.shape[-1])
            s = s - s.max()
            w = torch.exp(s)
            w = w / w.sum()
            out_rows.append(w @ v_mat)
            weight_rows.append(w)
        outputs.append(torch.stack(out_rows))
        weight_tables.append(torch.stack(weight_rows))
    out = torch.stack(outputs).reshape(*lead, Q.shape[-2], V.shape[-1])
    weights = torch.stack(weight_tables).reshape(*lead, Q.shape[-2], K.shape[-2])
    return out, weights
