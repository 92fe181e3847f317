"""Exercise `softmax`, lllldj/cs336 cs336_basics/myFunctional.py.

    def toy_softmax(x):
        sx = x -  x.max(-1,keepdim=True).values
        ex = sx.exp()
        return ex/ex.sum(-1,keepdim=True)
"""
import os
import torch
import torch.nn as nn


def softmax(x, dim=-1):
    sx = x -  x.max(-1,keepdim=True).values
    ex = sx.exp()
    return ex/ex.sum(-1,keepdim=True)
