"""How each normalise mistake shows in the numbers: the reference computation with its switches.

Trusted grader code; never handed out. Its steps (mean, variance, normalise) are what a wrong answer
is located against.
"""
import torch


def normalise(f, x: torch.Tensor, eps: float) -> torch.Tensor:
    dim = f.choose("normalise-wrong-dim", -1, [0, None])
    over = {} if dim is None else {"dim": dim, "keepdim": True}
    mean = f.step("mean", x.mean(**over))
    var = f.step("variance", x.var(**over, correction=1 if f.on("normalise-unbiased-variance") else 0))
    centred = x if f.on("normalise-not-centred") else x - mean
    if f.on("normalise-no-eps"):
        spread = torch.sqrt(var)
    elif f.on("normalise-eps-outside-root"):
        spread = torch.sqrt(var) + eps
    else:
        spread = torch.sqrt(var + eps)
    return f.step("normalise", centred / spread)
