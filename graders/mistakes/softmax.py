"""How each softmax mistake shows in the numbers: the reference computation with its switches.

Trusted grader code (see attnkit/grading/models.py); never handed out. Each `choose` lists the
ways students write a mistake that give different numbers; `variant` lists steps that are harmless
in a correct softmax but not around a mistake (where the max shift is taken).
"""
import torch


def other_axes(x: torch.Tensor, dim: int) -> list[int]:
    """The axes a softmax along the wrong dimension runs along. The last axis is one only when `dim`
    asks for it: a softmax that ignores its `dim` (always the last axis) is another misconception,
    described, not named as this one."""
    axis = dim % x.ndim
    return [a for a in range(x.ndim) if a != axis and (a != x.ndim - 1 or axis == x.ndim - 1)]


def softmax(f, scores: torch.Tensor, dim: int = -1) -> torch.Tensor:
    axis = f.choose("softmax-wrong-dim", dim % scores.ndim, other_axes(scores, dim))
    keep_max, keep_sum = f.choose("softmax-missing-keepdim", (True, True),
                                  [(True, False), (False, True), (False, False)])
    if f.on("softmax-unstable"):
        shifted = scores
    else:
        # a max taken without keepdim is a max along an axis; otherwise the max may be anyone's
        shift = f.variant("shift", ["along the axis", "along dim"] +
                          (["over everything", "none"] if keep_max else []))
        if shift == "along the axis":
            shifted = scores - scores.amax(dim=axis, keepdim=keep_max)
        elif shift == "along dim":
            shifted = scores - scores.amax(dim=dim, keepdim=keep_max)
        elif shift == "over everything":
            shifted = scores - scores.max()
        else:
            shifted = scores
    f.step("shift", shifted)
    exps = f.step("powers", shifted if f.on("softmax-no-exp") else torch.exp(shifted))
    over = f.choose("softmax-global-sum", "axis", ["everything", "the last two dims"])
    if over == "everything":
        total = exps.sum()
    elif over == "the last two dims":
        total = exps.sum(dim=(-2, -1), keepdim=True)
    else:
        total = exps.sum(dim=axis, keepdim=keep_sum)
    f.step("totals", total)
    return f.step("quotient", exps / total)
