"""Exercise `scaled_scores` with einsum, as Aladdin Persson's transformer from scratch does.

ML/Pytorch/more_advanced/transformer_from_scratch: energy = torch.einsum("nqhd,nkhd->nhqk", [queries, keys])
One head, batch letters as an ellipsis.
"""
import math

import torch


def scaled_scores(query, keys):
    # Einsum does matrix mult. for query*keys for each training example
    energy = torch.einsum("...kd,...qd->...qk", [query, keys])
    return energy / math.sqrt(keys.shape[-1])
