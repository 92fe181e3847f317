"""torch.sparse's softmax on a sparse copy of the scores (every entry stored, zeros included)."""
import torch


def softmax(scores, dim=-1):
    indices = torch.ones_like(scores).nonzero().T
    sparse = torch.sparse_coo_tensor(indices, scores[tuple(indices)], scores.shape)
    return torch.sparse.softmax(sparse, dim).to_dense()
