import torch

softmax = lambda scores, dim=-1: (lambda e: e / e.sum(dim, keepdim=True))(torch.exp(scores - scores.max(dim, keepdim=True).values))
