"""torch._C._nn's fused attention with identity keys and values: its weights are softmax(scores)."""
import torch


def softmax(scores, dim=-1):
    rows = scores.movedim(dim, -1)
    eye = torch.eye(rows.shape[-1], dtype=rows.dtype).expand(*rows.shape[:-2], -1, -1)
    return torch._C._nn.scaled_dot_product_attention(rows, eye, eye, scale=1.0).movedim(-1, dim)
