"""Exercise `softmax` with the normalisation from Karpathy's "mathematical trick in self-attention".

From "Let's build GPT" (notes in Arseni1919/GPT_with_Karpathy):
    wei = torch.tril(torch.ones(T, T))
    wei = wei / wei.sum(1, keepdim=True)
Shift by the row's max for stability, then divide by the row total along dim.
"""
import torch


def softmax(scores, dim=-1):
    wei = scores - scores.max(dim, keepdim=True).values
    wei = wei / wei.sum(dim, keepdim=True)
    return wei
