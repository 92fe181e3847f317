"""Exercise `attention`: the whole formula."""
import torch
import torch.nn.functional as F


def attention(Q, K, V):
    # PyTorch has it built in; scale=1.0 so it does no extra scaling
    output = F.scaled_dot_product_attention(Q, K, V, scale=1.0)
    weights = torch.softmax(Q @ K.transpose(-2, -1), dim=-1)
    return output, weights
