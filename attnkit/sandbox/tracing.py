"""The traced second run of a wrong answer: which numbers the student's code bound, on which line.

Runs inside the sandbox. `traced` runs one request under `sys.settrace`, limited to frames whose code
lives in the student's package folder (every other frame is not traced at all, so torch and the
kit run at full speed). After each line of the student's code, the frame's locals are compared with
what they held before it: each name that now holds another tensor, array, float or list of numbers,
a list of tensors of one shape (a loop appending rows to stack later, read as their stack), or the
same tensor changed in place, or an int (a size a scale is computed from), is one `Binding`,
on the line that just ran; a returned value
is bound to `return` on the line that returned it; a function's arguments are bound on its `def`
line when it is called.

Everything is capped (the request says how much): bindings in all, repeats of one name on one line
(a loop binds a row a time: the first few and the last are kept), the numbers of one value (a larger
value keeps its shape only) and the lines traced. Where a cap is reached the trace says it is
incomplete and stops growing. The trace is evidence for the words of a student's feedback, never for
a score: code that turns the tracer off, floods it or binds objects that lie loses its location only.
"""
from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import numpy as np

from attnkit.sandbox.protocol import Binding

MAX_LINES = 200_000      # line events traced in one run: a loop over every number stops being followed
MAX_REPEATS = 4          # bindings kept of one name on one line (a loop's first few, then its latest)
MAX_LIST_ITEMS = 4096    # a list of numbers larger than this is not read (reading it costs the student's time)
MAX_ATTRIBUTES = 64      # attributes of a frame's `self` looked at

Key = tuple[int, int]    # what a local held: the object's id, and a tensor's version (changed in place)


class Tracer:
    """The bindings of one traced run (see the module's docstring)."""

    def __init__(self, package_dir: Path, max_bindings: int, max_numbers: int):
        self.folder = str(package_dir)
        self.max_bindings, self.max_numbers = max_bindings, max_numbers
        self.bindings: list[Binding] = []
        self.complete = True
        self._held: dict[FrameType, dict[str, Key]] = {}
        self._line: dict[FrameType, int] = {}
        self._repeats: dict[tuple[str, int, str], int] = {}
        self._lines = 0
        self._torch: Any = sys.modules.get("torch")

    # --- the trace functions ----------------------------------------------------------------------

    def on_call(self, frame: FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        """sys.settrace's global function: trace the student's own frames only."""
        if event != "call" or not self._traced(frame):
            return None
        try:
            self._held[frame] = {}
            self._line[frame] = frame.f_lineno
            # a function's arguments, on its def line; a comprehension's or lambda's (the names it reads
            # from around it) are not bindings of its line
            self._record_changes(frame, silently=frame.f_code.co_name.startswith("<"))
        except Exception:
            self.complete = False
        return self.on_event

    def on_event(self, frame: FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        """The local trace function of one of the student's frames."""
        try:
            if event == "line":
                self._lines += 1
                if self._lines > MAX_LINES:
                    self.complete = False
                    self._forget(frame)
                    return None
                self._record_changes(frame)
                self._line[frame] = frame.f_lineno
            elif event == "return":
                self._record_changes(frame)
                self._add_returned(frame, arg)
                self._forget(frame)
        except Exception:  # an object of the student's that misbehaves when looked at: the trace ends there
            self.complete = False
            self._forget(frame)
            return None
        return self.on_event

    def _traced(self, frame: FrameType) -> bool:
        if not self.complete and len(self.bindings) >= self.max_bindings:
            return False
        return str(Path(frame.f_code.co_filename).parent) == self.folder

    def _forget(self, frame: FrameType) -> None:
        self._held.pop(frame, None)
        self._line.pop(frame, None)

    # --- what changed ---------------------------------------------------------------------------------

    def _record_changes(self, frame: FrameType, silently: bool = False) -> None:
        held = self._held.setdefault(frame, {})
        for name, value in self._locals(frame):
            key = self._key(value)
            if key is None or held.get(name) == key:
                continue
            alias = next((other for other, known in held.items() if known == key and other != name), "") \
                if type(value) is not int else ""
            held[name] = key
            if not silently:
                self._add(frame, name, value, alias)

    def _locals(self, frame: FrameType) -> list[tuple[str, Any]]:
        """The frame's locals, and the plain attributes and buffers of its `self` (`self.scale`): a class
        keeps its numbers there."""
        names = list(frame.f_locals.items())
        owner = frame.f_locals.get("self")
        attributes = getattr(owner, "__dict__", None) if owner is not None else None
        if type(attributes) is dict:
            buffers = attributes.get("_buffers")
            plain = [*attributes.items(), *(buffers.items() if type(buffers) is dict else ())]
            names += [(f"self.{key}", value) for key, value in plain[:MAX_ATTRIBUTES] if type(key) is str]
        return names

    def _key(self, value: Any) -> Key | None:
        """What identifies a value worth recording, or None for one that is not (ints, modules, functions)."""
        torch = self._torch
        if torch is not None and isinstance(value, torch.Tensor):
            return id(value), int(torch.Tensor._version.__get__(value))
        if isinstance(value, np.ndarray) or type(value) in (float, int) or \
                (isinstance(value, np.number) and value.dtype.kind in "iuf"):  # numpy's own numbers too
            return id(value), 0
        if type(value) in (list, tuple) and value and (_numbers_only(value) or self._arrays_only(value)):
            return id(value), len(value)
        return None

    def _arrays_only(self, value: list[Any] | tuple[Any, ...]) -> bool:
        """A list of tensors (or arrays) of one shape, as a loop appends rows or numbers to stack later:
        plain tensors only (a subclass may lie about its numbers), and few enough to read."""
        torch = self._torch
        if len(value) > MAX_LIST_ITEMS:
            return False
        kinds = (torch.Tensor, np.ndarray) if torch is not None else (np.ndarray,)
        first = value[0]
        if type(first) not in kinds:
            return False
        shape = tuple(first.shape)
        return all(type(item) is type(first) and tuple(item.shape) == shape for item in value) and \
            math.prod(shape) * len(value) <= self.max_numbers

    def _add_returned(self, frame: FrameType, value: Any) -> None:
        """A returned value, or each item of a returned tuple (attention's output and weights)."""
        split = type(value) is tuple or not frame.f_code.co_name.startswith("<")  # not a comprehension's list
        if split and type(value) in (tuple, list) and len(value) <= 4 and not _numbers_only(value):
            for index, item in enumerate(value):
                self._add(frame, f"return[{index}]", item)
        else:
            self._add(frame, "return", value)

    def _add(self, frame: FrameType, name: str, value: Any, alias: str = "") -> None:
        if self._key(value) is None:
            return
        if len(self.bindings) >= self.max_bindings:
            self.complete = False
            return
        file, line = Path(frame.f_code.co_filename).name, self._line.get(frame, frame.f_lineno)
        site = (file, line, name)
        seen = self._repeats.get(site, 0)
        self._repeats[site] = seen + 1
        shape, numbers = self._numbers(value)
        binding = Binding(file, line, name[:100], shape, numbers, alias[:100])
        if seen >= MAX_REPEATS:  # a loop's latest binding replaces its last one kept
            for index in range(len(self.bindings) - 1, -1, -1):
                if (self.bindings[index].file, self.bindings[index].line, self.bindings[index].name) == site:
                    self.bindings[index] = binding
                    return
        self.bindings.append(binding)

    def _numbers(self, value: Any) -> tuple[tuple[int, ...], np.ndarray | None]:
        """A value's shape, and its numbers as float64 where there are few enough (read without the
        student's overrides: torch's own methods, called on the class)."""
        torch = self._torch
        if torch is not None and isinstance(value, torch.Tensor):
            with torch._C.DisableTorchFunctionSubclass():
                shape = tuple(int(n) for n in torch.Tensor.size(value))
                if math.prod(shape) > self.max_numbers or torch.Tensor.is_complex(value) or value.is_meta:
                    return shape, None
                plain = torch.Tensor.detach(value).to("cpu", torch.float64)
                return shape, np.array(torch.Tensor.numpy(plain), dtype=np.float64)
        if isinstance(value, np.ndarray):
            shape = tuple(int(n) for n in value.shape)
            if math.prod(shape) > self.max_numbers or value.dtype.kind not in "biuf":
                return shape, None
            return shape, np.array(value, dtype=np.float64)
        if type(value) in (list, tuple) and not _numbers_only(value):  # a list of tensors of one shape
            items = [self._numbers(item)[1] for item in value]
            if any(item is None for item in items):
                return (len(value), *self._numbers(value[0])[0]), None
            return (len(value), *self._numbers(value[0])[0]), np.stack([i for i in items if i is not None])
        array = np.array(value, dtype=np.float64)  # a float, or a list of numbers (checked: no objects in it)
        shape = tuple(int(n) for n in array.shape)
        return shape, array if array.size <= self.max_numbers else None


def _numbers_only(value: list[Any] | tuple[Any, ...], depth: int = 0) -> bool:
    """A (nested) list of plain numbers, rectangular, and small enough to read."""
    if depth > 3 or len(value) > MAX_LIST_ITEMS:
        return False
    if all(type(v) in (float, int) for v in value):
        return any(type(v) is float for v in value) or depth > 0
    if all(type(v) in (list, tuple) for v in value):
        lengths = {len(v) for v in value}
        return len(lengths) == 1 and all(_numbers_only(v, depth + 1) for v in value)
    return False


@contextmanager
def traced(package_dir: Path, max_bindings: int, max_numbers: int) -> Iterator[Tracer]:
    """Trace the student's frames while the block runs; the tracer is taken away after it."""
    tracer = Tracer(package_dir, max_bindings, max_numbers)
    previous = sys.gettrace()
    sys.settrace(tracer.on_call)
    try:
        yield tracer
    finally:
        if sys.gettrace() != tracer.on_call:  # the student's code took the tracer away or put its own
            tracer.complete = False
        sys.settrace(previous)
