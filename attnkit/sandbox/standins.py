"""Stand-ins inside the sandbox (error carried forward): a dependency's function replaced by one that asks
the grader.

A request may name functions of other exercises to replace. The package is imported afresh with each of
those functions replaced by a stand-in that sends its arguments to the grader and returns the grader's
numbers (also for the backward pass), so the student's own code runs on correct dependencies while no
reference code enters this process.
"""
from __future__ import annotations

import importlib
import os
import sys
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from attnkit.sandbox.protocol import CallRequest, ModuleRequest, StandinAnswer, StandinCall
from attnkit.sandbox.values import _torch, tensor_numbers, to_value

Channel = Callable[[StandinCall], StandinAnswer]


def make_standin(index: int, name: str, channel: Channel) -> Callable[..., Any]:
    """A function that answers with the grader's numbers, forward and backward."""
    torch = _torch()
    autograd_function: Any = torch.autograd.Function  # torch comes in late: a base class mypy cannot look up

    class StandinFunction(autograd_function):
        @staticmethod
        def forward(ctx, template, *tensors):
            ctx.template = template
            ctx.save_for_backward(*tensors)
            args, kwargs = _fill(template, tensors)
            answer = _ask(channel, StandinCall(index, args, kwargs, None), name)
            like = tensors[0] if tensors else None
            outputs = tuple(_tensor_like(v, like) for v in answer.values)
            ctx.single = answer.single
            return outputs[0] if answer.single else outputs

        @staticmethod
        def backward(ctx, *grad_outputs):
            tensors = ctx.saved_tensors
            args, kwargs = _fill(ctx.template, tensors)
            grads = tuple(None if g is None else tensor_numbers(g) for g in grad_outputs)
            answer = _ask(channel, StandinCall(index, args, kwargs, grads), name)
            return (None, *(_tensor_like(v, t) for v, t in zip(answer.values, tensors)))

    def standin(*args: Any, **kwargs: Any) -> Any:
        tensors: list[Any] = []
        template = (_template(args, tensors), {k: _template(v, tensors) for k, v in kwargs.items()})
        return StandinFunction.apply(template, *tensors)

    standin.__name__ = name.rpartition(".")[2]
    return standin


class _Slot:
    """Where a tensor argument goes back in a stand-in's argument template."""

    def __init__(self, index: int):
        self.index = index


def _template(value: Any, tensors: list[Any]) -> Any:
    torch = _torch()
    if isinstance(value, torch.Tensor):
        tensors.append(value)
        return _Slot(len(tensors) - 1)
    if isinstance(value, (tuple, list)):
        return tuple(_template(v, tensors) for v in value)
    return value


def _fill(template: Any, tensors: tuple[Any, ...]) -> tuple[tuple[Any, ...], dict[str, Any]]:
    def value(item: Any) -> Any:
        if isinstance(item, _Slot):
            return tensor_numbers(tensors[item.index])
        if isinstance(item, tuple):
            return tuple(value(v) for v in item)
        return to_value(item)

    args, kwargs = template
    return value(args), {k: value(v) for k, v in kwargs.items()}


def _ask(channel: Channel, call: StandinCall, name: str) -> StandinAnswer:
    answer = channel(call)
    if answer.error:
        raise TypeError(f"{name}: {answer.error}")
    return answer


def _tensor_like(array: np.ndarray, like: Any) -> Any:
    torch = _torch()
    dtype = like.dtype if like is not None and like.is_floating_point() else torch.float32
    return torch.tensor(array, dtype=dtype)


class Standins:
    """The package imported afresh with some dependencies' functions replaced, for one request."""

    def __init__(self, package: str, request: CallRequest | ModuleRequest, channel: Channel | None):
        self.package, self.request, self.channel = package, request, channel
        self.saved: dict[str, types.ModuleType] = {}

    def __enter__(self) -> Standins:
        if not self.request.standins:
            return self
        if self.channel is None:
            raise RuntimeError("stand-ins were asked for where the grader cannot answer them")
        self.saved = self._forget_package()
        package = importlib.import_module(self.package)
        for index, standin in enumerate(self.request.standins):
            name = f"{self.package}.{standin.module}"
            try:
                module = importlib.import_module(name)
            except (Exception, SystemExit):  # the dependency's own failure is what the stand-in replaces
                module = types.ModuleType(name)
                module.__package__ = self.package
                sys.modules[name] = module
                setattr(package, standin.module, module)
            setattr(module, standin.function, make_standin(index, f"{standin.module}.{standin.function}", self.channel))
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.request.standins:
            self._forget_package()
            sys.modules.update(self.saved)

    def _forget_package(self) -> dict[str, types.ModuleType]:
        """Take the package and its modules out of sys.modules, so the next import runs them afresh.

        Its modules are its folder's files (a submission is a flat folder of modules), looked up by
        name: scanning all of sys.modules would touch every module name a sandbox shares with its warm
        parent, and copying those pages cost a sandbox milliseconds. A module the student's code put in
        sys.modules under some other name is not forgotten, which changes only that student's own run.
        """
        package = sys.modules.get(self.package)
        names = [self.package] + [f"{self.package}.{name[:-3]}" for folder in getattr(package, "__path__", None) or ()
                                  for name in os.listdir(folder) if name.endswith(".py")]
        return {name: sys.modules.pop(name) for name in names if name in sys.modules}
