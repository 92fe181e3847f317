"""Exercise `softmax`, after NPBench's numerically-stable numpy softmax.

spcl/npbench deep_learning/softmax:
    # tmp_max = np.max(x, axis=-1, keepdims=True)
    tmp_max = np.max(x, axis=-1)[:, :, :, np.newaxis]
    tmp_out = np.exp(x - tmp_max)
    # tmp_sum = np.sum(tmp_out, axis=-1, keepdims=True)
    tmp_sum = np.sum(tmp_out, axis=-1)[:, :, :, np.newaxis]
    return tmp_out / tmp_sum
The [:, :, :, np.newaxis] only works for 4-D input, so I used the commented keepdims form.
"""
import torch


def softmax(x, dim=-1):
    tmp_max = torch.amax(x, dim=dim, keepdim=True)
    tmp_out = torch.exp(x - tmp_max)
    tmp_sum = torch.sum(tmp_out, dim=dim)
    return tmp_out / tmp_sum
