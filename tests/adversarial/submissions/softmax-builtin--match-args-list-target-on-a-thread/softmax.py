"""A `match` class pattern reads `__match_args__`, bound here by a list target (no plain assignment
names the routine), and the call runs on a thread. Refused at the dispatcher: the thread's call fails."""
import threading

import torch


class _Everything(type):
    def __instancecheck__(cls, instance):
        return True


class Door(metaclass=_Everything):
    __match_args__ = ()


[Door.__match_args__] = [("soft" + "max",)]


def softmax(scores, dim=-1):
    match torch:
        case Door(routine):
            pass
    out = []
    thread = threading.Thread(target=lambda: out.append(routine(scores, dim)))
    thread.start()
    thread.join()
    return out[0]
