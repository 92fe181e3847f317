"""Honest: a Tensor subclass whose __torch_function__ counts the operations, around hand-written arithmetic."""
import torch

COUNT = {"ops": 0}


class Counted(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        COUNT["ops"] += 1
        return super().__torch_function__(func, types, args, kwargs or {})


def softmax(scores, dim=-1):
    counted = scores.as_subclass(Counted)
    exps = torch.exp(counted - counted.amax(dim=dim, keepdim=True))
    return (exps / exps.sum(dim=dim, keepdim=True)).as_subclass(torch.Tensor)
