"""Library routines an exercise must not use, made unavailable in its sandbox at torch's dispatcher.

Why here and not in the source: a call reaches a kernel however the name was found (a `match`
pattern, a thread, a `__torch_function__` subclass, `torch.ops`, a string built at run time), and
outguessing Python's ways of binding a name is an arms race. So, in the sandbox of an exercise whose
mistakes forbid names (`softmax-builtin`), before any student code exists, `install` registers a
kernel that refuses for every torch operator whose name holds a forbidden name (`aten::_softmax`,
`aten::_log_softmax`, `aten::_scaled_dot_product_flash_attention_for_cpu`, `quantized::softmax`,
...), on every dispatch key where that operator computes numbers, and takes the code of torch's own
Python versions of those routines (`torch._refs.softmax`, `torch._decomp`'s decompositions). Any
route then either fails with `MARK` in its message or computes the numbers without them; the
grader decides from what came back (`is_refusal`, and `Answer.calls`: the refused routines the code
reached while it ran, even on a thread whose failure it swallowed, which can only ever cost the
student who hides it). The registration's handle is kept by a reference no Python object holds, so
nothing the student can find from Python takes it back; native code (ctypes) is not held back.

Matching ignores case and underscores and finds a name inside a longer one (`ForbiddenNames`), as
the source analysis (`attnkit.grading.source_rules`) does for the feedback's words.
"""
from __future__ import annotations

import ctypes
import sys
import types
import unicodedata
import warnings
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

MARK = "attnkit refused"  # in every refusal's message: what the grader recognises
KEYS = ("CPU", "SparseCPU", "SparseCsrCPU", "NestedTensorCPU", "MkldnnCPU", "QuantizedCPU", "Meta",
        "CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional", "CompositeImplicitAutograd")
_reached: list[str] = []  # the refused routines called since `take` last ran (this process)


class ForbiddenNames:
    """The caller's list, matched ignoring case and underscores, as a part of a longer name too."""

    def __init__(self, names: Collection[str]):
        self.keys = {k for k in map(_fold, names) if k}

    def match(self, name: str) -> bool:
        folded = _fold(name)
        return any(key in folded for key in self.keys)


def _fold(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold().replace("_", "")


@dataclass(frozen=True)
class Plan:
    """What `install` takes away: (operator, dispatch key) pairs, and torch's Python functions."""

    kernels: tuple[tuple[str, str], ...]
    functions: tuple[types.FunctionType, ...]


_plans: dict[tuple[str, ...], Plan] = {}
# In the warm parent only (`install_for_forks`): what it refuses, its registrations and the functions' own code.
_liftable: tuple[tuple[str, ...], list[Any], list[tuple[types.FunctionType, types.CodeType]]] | None = None


def plan(names: Collection[str]) -> Plan:
    """What refusing `names` takes away in this torch (found once a process: the warm parent finds it
    for all its sandboxes on the first fork that asks)."""
    key = tuple(sorted(names))
    if key not in _plans:
        import torch

        forbidden = ForbiddenNames(names)
        operators = [n for n in torch._C._dispatch_get_all_op_names() if forbidden.match(n.partition("::")[2])]
        kernels = tuple((op, k) for op in sorted(operators) for k in KEYS
                        if torch._C._dispatch_has_kernel_for_dispatch_key(op, k))
        _plans[key] = Plan(kernels, tuple(_python_versions(forbidden)))
    return _plans[key]


def _python_versions(forbidden: ForbiddenNames) -> list[types.FunctionType]:
    """torch's functions written in Python whose name is forbidden (torch._refs.softmax, torch._decomp's
    _softmax, the meta functions, torch.nn.functional.softmin...), unwrapped to the function that computes."""
    import torch._decomp

    candidates: list[Any] = []
    for name, module in list(sys.modules.items()):
        if (name == "torch" or name.startswith("torch.")) and isinstance(module, types.ModuleType):
            candidates += [value for value in vars(module).values() if type(value) is types.FunctionType]
    candidates += [decomposition for op, decomposition in torch._decomp.decomposition_table.items()
                   if forbidden.match(op.name())]
    found: dict[int, types.FunctionType] = {}
    for candidate in candidates:
        function: Any = candidate
        while isinstance(function, types.FunctionType):
            if forbidden.match(function.__name__) and function.__module__.startswith("torch") \
                    and not function.__code__.co_freevars:
                found[id(function)] = function
            function = getattr(function, "__wrapped__", None)
    return list(found.values())


def install(names: Collection[str]) -> None:
    """Refuse the routines `names` forbid, in this process and all it forks, for good."""
    _install(names)


def install_for_forks(names: Collection[str]) -> None:
    """In the warm parent, once: refuse `names` here, so every sandbox forked refusing them starts so (the
    registrations cost a sandbox about 3 ms); each sandbox then `settle`s what it refuses before any
    student code exists in it."""
    global _liftable
    if _liftable is None:
        _liftable = (tuple(sorted(names)), *_install(names))


def settle(names: Collection[str]) -> None:
    """In a sandbox, before any student code: refuse exactly `names`. What the warm parent refused
    (`install_for_forks`) is kept if it is that, else lifted first; then nothing here can lift it."""
    global _liftable
    wanted = tuple(sorted(names))
    if _liftable is not None:
        refused, libraries, originals = _liftable
        _liftable = None  # nothing the student's code can find holds what would lift the refusal
        if refused == wanted:
            return
        for library in libraries:
            library.reset()
        for function, code in originals:
            function.__code__ = code
    if wanted:
        _install(wanted)


def _install(names: Collection[str]) -> tuple[list[Any], list[tuple[types.FunctionType, types.CodeType]]]:
    """Refuse `names`; the registrations (kept alive by a count no Python object holds: none can reset
    them) and the functions' own code, for `settle` to lift in a sandbox that refuses something else."""
    import torch

    chosen = plan(names)
    libraries: dict[str, Any] = {}
    with warnings.catch_warnings():  # "overriding a previously registered kernel": that is the point
        warnings.simplefilter("ignore")
        for operator, key in chosen.kernels:
            namespace, _, name = operator.partition("::")
            if namespace not in libraries:
                libraries[namespace] = torch._C._dispatch_library("IMPL", namespace, "", "", 0)
            libraries[namespace].impl(name, key, _refusing_kernel(operator))
    for library in libraries.values():
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(library))
    originals = [(function, function.__code__) for function in chosen.functions]
    for function in chosen.functions:
        function.__code__ = _REFUSING_CODE.replace(co_name=function.__name__, co_qualname=function.__qualname__)
    return list(libraries.values()), originals


def _refusing_kernel(operator: str) -> Any:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        _reached.append(operator)
        raise RuntimeError(f"{MARK} {operator}: the library's routine is not available in this exercise")

    return refuse


def _refusing_python(*args: Any, **kwargs: Any) -> Any:
    """The code a refused Python function of torch's gets (its globals are its module's: names are imported)."""
    import sys

    name = sys._getframe(0).f_code.co_qualname
    sys.modules["attnkit.sandbox.refusals"]._reached.append(name)
    raise RuntimeError(f"attnkit refused {name}: the library's routine is not available in this exercise")


_REFUSING_CODE = _refusing_python.__code__


def take() -> tuple[str, ...]:
    """The refused routines called since the last `take` (each once, in order), and forget them."""
    reached = tuple(dict.fromkeys(_reached))
    _reached.clear()
    return reached


def is_refusal(message: str) -> bool:
    """Whether a failure's message is (or carries) a refusal."""
    return MARK in message


def refused_in(message: str) -> list[str]:
    """The routines a refusal's message names (`MARK name, name: ...` or `MARK name; then ...`)."""
    if MARK not in message:
        return []
    names = message.split(MARK, 1)[1].split(": ", 1)[0].split(";", 1)[0]  # aten::_softmax holds a colon
    return [name.strip() for name in names.split(",") if name.strip()]
