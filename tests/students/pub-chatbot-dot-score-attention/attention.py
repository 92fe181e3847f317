"""Exercise `attention` with the PyTorch chatbot tutorial's Luong "dot" score.

dcanTOKA/ChatBot service/nlp/attention_service.py (the PyTorch chatbot tutorial's Attn):
    def dot_score(self, hidden, encoder_output):
        return torch.sum(hidden * encoder_output, dim=2)
Every query against every key by broadcasting, then softmax and blend.
"""
import torch
import torch.nn.functional as F


def dot_score(hidden, encoder_output):
    return torch.sum(hidden * encoder_output, dim=-1)


def attention(Q, K, V):
    # Calculate the attention weights (energies): query i against key j
    attn_energies = dot_score(Q.unsqueeze(-2), K.unsqueeze(-3))
    # Return the softmax normalized probability scores
    weights = F.softmax(attn_energies, dim=-1)
    return weights @ V, weights
