"""The pattern's class and its metaclass made by three-argument `type()`, `__match_args__` in the
namespace dict, the name decoded from rot13."""
import codecs

import torch.nn.functional

Everything = type("Everything", (type,), {"__instancecheck__": lambda cls, obj: True})
Door = Everything("Door", (), {"__match_args__": (codecs.decode("fbsgzva", "rot13"),)})


def softmax(scores, dim=-1):
    match torch.nn.functional:
        case Door(routine):
            return routine(-scores, dim)
