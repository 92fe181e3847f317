"""Exercise `softmax` after nnU-Net-style `softmax_helper`, which repeats instead of broadcasting.

TyrionJ/mQSM src/utils/softmax.py:
    rpt = [1 for _ in range(len(x.size()))]
    rpt[1] = x.size(1)
    x_max = x.max(1, keepdim=True)[0].repeat(*rpt)
    e_x = torch.exp(x - x_max)
    return e_x / e_x.sum(1, keepdim=True).repeat(*rpt)
with its fixed channel axis 1 turned into `dim`.
"""
import torch


def softmax(x, dim=-1):
    rpt = [1 for _ in range(len(x.size()))]
    rpt[dim] = x.size(dim)
    x_max = x.max(dim, keepdim=True)[0].repeat(*rpt)
    e_x = torch.exp(x - x_max)
    return e_x / e_x.sum(dim, keepdim=True).repeat(*rpt)
