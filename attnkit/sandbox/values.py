"""The student's objects as plain data and back, inside the sandbox: tensors in, numbers and descriptions out.

What a request's code returned is described (`describe`), never judged here: arrays of real numbers, or
what else it was (complex, boolean, sparse, nested, meta, or lying about its shape: `_not_real`), and the
grader decides. Text is capped and made valid Unicode before it is sent.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from attnkit.sandbox import protocol
from attnkit.sandbox.protocol import Returned

MAX_MESSAGE = 500
MAX_TYPE_NAME = 100


def _torch():
    import torch

    return torch


def clean_text(value: Any, limit: int) -> str:
    """Text safe to send: capped, and valid Unicode (lone surrogates replaced)."""
    try:
        text = str(value)
    except BaseException:  # a student's object whose __str__ raises
        text = "(could not be printed)"
    text = text[:limit]
    return text.encode("utf-8", errors="replace").decode("utf-8")


# --- values in and out ---------------------------------------------------------------------------


def to_tensor(value: Any, dtype: str) -> Any:
    """Arrays from the grader become tensors of the requested floating dtype; tuples stay tuples."""
    if isinstance(value, np.ndarray):
        torch = _torch()
        return torch.tensor(value, dtype=getattr(torch, dtype))
    if isinstance(value, tuple):
        return tuple(to_tensor(v, dtype) for v in value)
    return value


def tensor_numbers(value: Any) -> np.ndarray:
    """A tensor's numbers as float64, without calling anything the student may have overridden."""
    torch = _torch()
    with torch._C.DisableTorchFunctionSubclass():
        plain = torch.Tensor.detach(value).to("cpu", torch.float64)
        return np.array(torch.Tensor.numpy(plain), dtype=np.float64)


def describe(value: Any, depth: int = 0, *, integers: bool = False) -> Returned:
    """What a value is, and its numbers where it has them.

    Only real numbers are numbers: a complex, boolean, sparse, meta or nested tensor (or a complex or
    boolean numpy array) is described as what it is, never as its numbers (casting would drop an
    imaginary part, or read True as 1), and integers only where `integers` (a module's constants:
    `keys = [[2, 0], ...]` is a fair way to write them; a computed answer in integers is not one).
    """
    torch = _torch()
    type_name = clean_text(type(value).__name__, MAX_TYPE_NAME)
    if isinstance(value, torch.Tensor):
        kind = _not_real(value, integers)
        if kind:
            return Returned("other", clean_text(f"{kind} {type_name}", MAX_TYPE_NAME))
        try:
            return Returned("array", type_name, tensor_numbers(value), str(value.dtype).replace("torch.", ""),
                            requires_grad=bool(value.requires_grad))
        except (TypeError, RuntimeError):
            return Returned("other", type_name)
    if value is None:
        return Returned("none", type_name)
    if isinstance(value, (tuple, list)):
        array = None if any(isinstance(v, (torch.Tensor, np.ndarray)) for v in value) else _as_array(value)
        if array is not None:
            return Returned("array", type_name, array, type_name)
        if len(value) > protocol.MAX_ITEMS or depth >= 2:
            return Returned("other", type_name)
        return Returned("sequence", type_name,
                        items=tuple(describe(v, depth + 1, integers=integers) for v in value))
    if isinstance(value, np.ndarray) and value.dtype.kind not in ("fiu" if integers else "f"):
        return Returned("other", clean_text(f"{value.dtype} {type_name}", MAX_TYPE_NAME))
    array = _as_array(value)
    if array is not None:
        dtype = str(value.dtype) if isinstance(value, np.ndarray) else type_name
        return Returned("array", type_name, array, clean_text(dtype, MAX_TYPE_NAME))
    return Returned("other", type_name)


def _not_real(tensor: Any, integers: bool) -> str:
    """What makes a tensor not an answer of real numbers ("complex64", "sparse", ...); "" when it is one."""
    torch = _torch()
    with torch._C.DisableTorchFunctionSubclass():  # the student's subclass may lie about any of these
        if torch.Tensor.is_nested.__get__(tensor):
            return "nested"
        if torch.Tensor.is_meta.__get__(tensor):
            return "meta"
        layout = torch.Tensor.layout.__get__(tensor)
        if layout != torch.strided:
            return str(layout).replace("torch.", "").strip("_")
        dtype = torch.Tensor.dtype.__get__(tensor)
        if dtype.is_floating_point or (integers and not dtype.is_complex and dtype != torch.bool):
            return ""
        return str(dtype).replace("torch.", "")


def _as_array(value: Any) -> np.ndarray | None:
    try:
        array = np.array(np.asarray(value, dtype=np.float64), dtype=np.float64)
    except BaseException:  # anything the student's object does on conversion
        return None
    if array.size > protocol.MAX_ARRAY_ELEMENTS or array.ndim > protocol.MAX_DIMENSIONS:
        return None
    return array


def to_value(value: Any) -> Any:
    """A stand-in's argument as plain data for the grader; TypeError for what cannot travel."""
    torch = _torch()
    if isinstance(value, torch.Tensor):
        return tensor_numbers(value)
    if isinstance(value, np.ndarray):
        return np.asarray(value, dtype=np.float64)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (tuple, list)):
        return tuple(to_value(v) for v in value)
    raise TypeError(f"a stand-in cannot take an argument of type {type(value).__name__}")


# --- errors --------------------------------------------------------------------------------------
