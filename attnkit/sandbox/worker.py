"""What runs inside the sandbox: import the student's package and run requests.

`execute` is also how the trusted grader runs the reference and the mistake
variants, so the student's code and the reference are probed the same way.
Every request answers with plain data: a status, numbers, an error's type,
message and line, and the torch functions the code called.
"""
from __future__ import annotations

import importlib
import os
import sys
import traceback
from pathlib import Path
from typing import Any, Callable

import numpy as np

Result = dict[str, Any]
MAX_RECORDED_CALLS = 200


def _torch():
    import torch

    return torch


def to_tensor(value: Any, dtype: str) -> Any:
    """Arrays from the wire become tensors of the requested floating dtype."""
    if isinstance(value, np.ndarray):
        torch = _torch()
        return torch.tensor(value, dtype=getattr(torch, dtype))
    return value


def to_numbers(value: Any) -> np.ndarray:
    """The student's value as a float64 array, without trusting its methods."""
    torch = _torch()
    if isinstance(value, torch.Tensor):
        with torch._C.DisableTorchFunctionSubclass():
            plain = torch.Tensor.detach(value).to("cpu", torch.float64)
            return np.array(torch.Tensor.numpy(plain), dtype=np.float64)
    array = np.asarray(value, dtype=np.float64)
    return np.array(array, dtype=np.float64)


def describe_type(value: Any) -> str:
    """A short name for what the student returned, for feedback."""
    torch = _torch()
    if isinstance(value, torch.Tensor):
        return f"tensor of {str(value.dtype).replace('torch.', '')}"
    if isinstance(value, np.ndarray):
        return f"numpy array of {value.dtype}"
    return type(value).__name__


def split_outputs(value: Any, count: int) -> list[Any]:
    """A function that promises `count` results must return that many."""
    if count == 1:
        return [value]
    if not isinstance(value, (tuple, list)) or len(value) != count:
        raise TypeError(f"expected a tuple of {count} results, got {describe_type(value)}")
    return list(value)


def where_raised(package_dir: Path, trace: traceback.StackSummary) -> str:
    """`file.py, line N` of the innermost frame in the student's package."""
    for frame in reversed(trace):
        path = Path(frame.filename)
        if path.parent == package_dir:
            return f"{path.name}, line {frame.lineno}"
    return ""


def error_result(status: str, error: BaseException, package_dir: Path) -> Result:
    where = where_raised(package_dir, traceback.extract_tb(error.__traceback__))
    if isinstance(error, SyntaxError) and error.filename and Path(error.filename).parent == package_dir:
        where = f"{Path(error.filename).name}, line {error.lineno}"
    try:
        message = str(error)[:500]
    except BaseException:  # a student's exception whose __str__ raises
        message = "(the exception could not be printed)"
    return {"status": status, "error": {"type": type(error).__name__, "message": message, "where": where}}


class CallRecorder:
    """Names of the torch functions and tensor methods the code called."""

    def __init__(self):
        from torch.overrides import TorchFunctionMode

        recorder = self
        self.names: list[str] = []

        class Mode(TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                name = getattr(func, "__name__", "")
                if name and name not in recorder.names and len(recorder.names) < MAX_RECORDED_CALLS:
                    recorder.names.append(name)
                return func(*args, **(kwargs or {}))

        self.mode = Mode()


def run_call(package: str, request: dict[str, Any]) -> Result:
    """Call `package.module.function(*args, **kwargs)` on tensors."""
    module = importlib.import_module(f"{package}.{request['module']}")
    function = getattr(module, request["function"])
    dtype = request.get("dtype", "float32")
    args = [to_tensor(a, dtype) for a in request.get("args", [])]
    kwargs = {k: to_tensor(v, dtype) for k, v in request.get("kwargs", {}).items()}
    recorder = CallRecorder()
    with recorder.mode:
        value = function(*args, **kwargs)
    outputs = split_outputs(value, request.get("outputs", 1))
    return {
        "status": "ok",
        "value": [to_numbers(v) for v in outputs],
        "types": [describe_type(v) for v in outputs],
        "calls": recorder.names,
        "args_after": [to_numbers(a) if isinstance(a, _torch().Tensor) else None for a in args],
    }


def describe_structure(module: Any, names: list[str]) -> dict[str, Any]:
    """Which of the named parts exist, their type and weight shapes, and the registered parameters.

    A part's `registered` says whether its weight (or the part itself, when it is
    a bare tensor) is one of `module.parameters()`, the tensors an optimiser
    would train; `shared_with` names an earlier part holding the very same weight.
    """
    torch = _torch()
    registered = {id(p) for p in module.parameters()} if isinstance(module, torch.nn.Module) else set()
    owners: dict[int, str] = {}
    parts: dict[str, Any] = {}
    for name in names:
        part = getattr(module, name, None)
        weight = getattr(part, "weight", None)
        tensor = weight if isinstance(weight, torch.Tensor) else part if isinstance(part, torch.Tensor) else None
        parts[name] = {
            "type": type(part).__name__ if part is not None else None,
            "weight_shape": list(weight.shape) if isinstance(weight, torch.Tensor) else None,
            "has_bias": isinstance(getattr(part, "bias", None), torch.Tensor),
            "registered": tensor is not None and id(tensor) in registered,
            "shared_with": owners.get(id(tensor)) if tensor is not None else None,
        }
        if tensor is not None:
            owners.setdefault(id(tensor), name)
    params = {name: list(p.shape) for name, p in module.named_parameters()}
    return {"parts": parts, "parameters": params}


def load_weights(module: Any, weights: dict[str, np.ndarray]) -> dict[str, Any]:
    """Set the grader's weights; returns the parameters actually set, by name."""
    torch = _torch()
    loaded = {}
    for path, array in weights.items():
        owner_name, _, attr = path.rpartition(".")
        owner = getattr(module, owner_name, None)
        param = getattr(owner, attr, None)
        if isinstance(param, torch.Tensor) and tuple(param.shape) == array.shape:
            with torch.no_grad():
                param.copy_(torch.tensor(array, dtype=param.dtype))
            loaded[path] = param
    return loaded


def run_module(package: str, request: dict[str, Any]) -> Result:
    """Build an nn.Module, set its weights, run forward and backward, report all as numbers."""
    torch = _torch()
    module_file = importlib.import_module(f"{package}.{request['module']}")
    cls = getattr(module_file, request["class"])
    dtype = request.get("dtype", "float32")
    instance = cls(**request.get("init", {}))
    structure = describe_structure(instance, request.get("parts", []))
    if request.get("input") is None:  # a probe of the structure alone
        return {"status": "ok", "value": [], "types": [], "calls": [], "structure": structure, "loaded": [],
                "grads": {}}
    if isinstance(instance, torch.nn.Module) and dtype != "float32":
        # Widen as a user calling .double() would; never narrow a module built in float64.
        instance.to(getattr(torch, dtype))
    weights = request.get("weights", {})
    loaded = load_weights(instance, weights)
    x = to_tensor(request["input"], dtype)
    recorder = CallRecorder()
    with recorder.mode:
        value = instance(x)
    outputs = split_outputs(value, request.get("outputs", 1))
    grads: dict[str, Any] = {}
    upstream = request.get("upstream")
    if upstream is not None:
        first = outputs[0]
        if isinstance(first, torch.Tensor) and first.requires_grad and tuple(first.shape) == upstream.shape:
            (first * to_tensor(upstream, dtype)).sum().backward()
        grads = {path: (to_numbers(p.grad) if p.grad is not None else None) for path, p in loaded.items()}
    return {
        "status": "ok",
        "value": [to_numbers(v) for v in outputs],
        "types": [describe_type(v) for v in outputs],
        "calls": recorder.names,
        "structure": structure,
        "loaded": sorted(loaded),
        "grads": grads,
    }


def read_constants(package: str, request: dict[str, Any]) -> Result:
    """Module-level constants as numbers; None stays None."""
    module = importlib.import_module(f"{package}.{request['module']}")
    values: dict[str, Any] = {}
    for name in request["names"]:
        value = getattr(module, name, None)
        values[name] = None if value is None else to_numbers(value)
    return {"status": "ok", "value": values}


OPERATIONS: dict[str, Callable[[str, dict[str, Any]], Result]] = {
    "call": run_call,
    "module": run_module,
    "constants": read_constants,
}


def execute(package: str, package_dir: Path, request: dict[str, Any]) -> Result:
    """Run one request against `package`; every outcome becomes a status."""
    try:
        return OPERATIONS[request["op"]](package, request)
    except NotImplementedError as error:
        return error_result("not-implemented", error, package_dir)
    except SystemExit as error:
        return error_result("exited", error, package_dir)
    except BaseException as error:  # the student's code may raise anything
        return error_result("crash", error, package_dir)


def serve(package_root: Path, requests, responses) -> None:
    """Answer requests until the grader closes the stream."""
    from attnkit.sandbox import protocol

    sys.path.insert(0, str(package_root))
    package_dir = package_root / "exercises"
    while True:
        request = protocol.read_message(requests)
        if request is None:
            return
        result = execute("exercises", package_dir, request)
        _flush_output()
        try:
            protocol.write_message(responses, result)
        except (TypeError, ValueError) as error:
            protocol.write_message(responses, error_result("crash", error, package_dir))


def _flush_output() -> None:
    """Send what the student printed before the answer, so it is captured even if the process is then killed."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # the student may have replaced or closed the stream
            pass


def serve_forked(package_root: Path, requests, responses) -> None:
    """Serve in a process forked from the warm parent: fd 1 and 2 are the output pipe, one torch thread."""
    _torch().set_num_threads(1)
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(line_buffering=True)
    serve(package_root, requests, responses)


def main() -> None:
    """Entry point of a sandbox process started afresh: argv is the package root and the response fd."""
    package_root = Path(sys.argv[1])
    responses = os.fdopen(int(sys.argv[2]), "wb")
    requests = os.fdopen(0, "rb")
    serve_forked(package_root, requests, responses)
    os._exit(0)


if __name__ == "__main__":
    main()
