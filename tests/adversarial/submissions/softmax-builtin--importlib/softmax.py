"""The functional module and its routine, both named by strings put together at run time."""
import importlib


def softmax(scores, dim=-1):
    functional = importlib.import_module("torch.nn." + "functional")
    return getattr(functional, "soft" + "max")(scores, dim=dim)
