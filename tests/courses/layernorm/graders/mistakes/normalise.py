"""How each normalise mistake shows in the numbers: the reference computation with its switches.

Trusted grader code; never handed out.
"""
import torch


def normalise(f, x: torch.Tensor, eps: float) -> torch.Tensor:
    dim = f.choose("normalise-wrong-dim", -1, [0, None])
    over = {} if dim is None else {"dim": dim, "keepdim": True}
    mean = x.mean(**over)
    var = x.var(**over, correction=1 if f.on("normalise-unbiased-variance") else 0)
    centred = x if f.on("normalise-not-centred") else x - mean
    if f.on("normalise-no-eps"):
        return centred / torch.sqrt(var)
    if f.on("normalise-eps-outside-root"):
        return centred / (torch.sqrt(var) + eps)
    return centred / torch.sqrt(var + eps)
