"""A categorical distribution over the scores as logits: its probabilities are softmax."""
import torch


def softmax(scores, dim=-1):
    rows = scores.movedim(dim, -1)
    return torch.distributions.Categorical(logits=rows, validate_args=False).probs.movedim(-1, dim)
