"""Exercise `softmax`, kaiwang0112006/3_CT-Lung-Seg_Unet medicalPredictor/modelUtils/calUtils.py (pysoftmax).

The comments talk about rows; the code takes one max and one sum over everything.
"""
import torch


def softmax(x, dim=-1):
    # 计算每行的最大值
    row_max = x.max()

    # 每行元素都需要减去对应的最大值，否则求exp(x)会溢出，导致inf情况
    # (the original's row_max.reshape(-1, 1) is left out: it turned a 1-D input into (1, n))
    x = x - row_max

    # 计算e的指数次幂
    x_exp = torch.exp(x)
    x_sum = torch.sum(x_exp)
    s = x_exp / x_sum
    return s
