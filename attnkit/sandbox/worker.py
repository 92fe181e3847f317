"""What runs inside the sandbox: import the student's package and run typed requests.

`execute` is also how the trusted grader runs the reference and the catalogue's variant packages,
so the student's code and the reference are probed the same way. Every request ends in plain
data (`protocol.Answer` or `protocol.Failure`): what came back is described, never judged here.

Stand-ins (error carried forward) are `standins.py`'s; turning objects into plain data, `values.py`'s.
"""
from __future__ import annotations

import dataclasses
import hashlib
import importlib
import importlib.machinery
import io
import os
import sys
import traceback
import types
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from attnkit.sandbox import protocol, refusals
from attnkit.sandbox.protocol import (
    Answer,
    CallRequest,
    ConstantsRequest,
    Failure,
    LayerReport,
    ModuleRequest,
    Part,
    StandinAnswer,
    StandinCall,
    Trace,
    TraceRequest,
)
from attnkit.sandbox.standins import Channel, Standins
from attnkit.sandbox.tracing import traced
from attnkit.sandbox.values import MAX_MESSAGE, MAX_TYPE_NAME, _torch, clean_text, describe, tensor_numbers, to_tensor


def where_raised(package_dir: Path, trace: traceback.StackSummary) -> str:
    """`file.py, line N` of the innermost frame in the student's package."""
    for frame in reversed(trace):
        path = Path(frame.filename)
        if path.parent == package_dir:
            return f"{path.name}, line {frame.lineno}"
    return ""


def failure(status: str, error: BaseException, package_dir: Path) -> Failure:
    where = where_raised(package_dir, traceback.extract_tb(error.__traceback__))
    if isinstance(error, SyntaxError) and error.filename and Path(error.filename).parent == package_dir:
        where = f"{Path(error.filename).name}, line {error.lineno}"
    message = clean_text(error.msg if isinstance(error, SyntaxError) else error, MAX_MESSAGE)
    return Failure(status, clean_text(type(error).__name__, MAX_TYPE_NAME), message, where)


# --- the three requests --------------------------------------------------------------------------


def run_call(package: str, request: CallRequest, channel: Channel | None) -> Answer:
    """Call `package.module.function(*args)` on tensors."""
    torch = _torch()
    with Standins(package, request, channel):
        module = importlib.import_module(f"{package}.{request.module}")
        function = getattr(module, request.function)
        args = [to_tensor(a, request.dtype) for a in request.args]
        sent = [a.clone() if isinstance(a, torch.Tensor) else None for a in args]
        value = function(*args)
        returned = describe(value)
    after = tuple(None if before is None or _unchanged(before, a) else tensor_numbers(a)
                  for before, a in zip(sent, args))
    return Answer(returned=returned, inputs_after=after)


def _unchanged(before: Any, after: Any) -> bool:
    torch = _torch()
    with torch._C.DisableTorchFunctionSubclass():
        return tuple(after.shape) == tuple(before.shape) and bool(torch.equal(torch.Tensor.detach(after), before))


def describe_parts(module: Any, names: tuple[str, ...]) -> dict[str, Part]:
    """Which of the named parts exist, their type and weight shape, which share a weight, which are registered.

    Every part described is kept alive until all are: a property may return a fresh tensor each time (a slice
    of one fused weight), and a freed tensor's id is given to the next one, which would read as one matrix
    under two names. A tensor computed from the module's parameters (a slice, a chunk, a clone, which autograd
    traces back to them) counts as registered: what the checks cannot do is set it, not train it."""
    torch = _torch()
    registered = {id(p) for p in module.parameters()} if isinstance(module, torch.nn.Module) else set()
    owners: dict[int, str] = {}
    parts: dict[str, Part] = {}
    alive: list[Any] = []
    for name in names:
        part = _attribute(module, name)
        weight = getattr(part, "weight", None)
        tensor = weight if isinstance(weight, torch.Tensor) else part if isinstance(part, torch.Tensor) else None
        alive += [part, tensor]
        parts[name] = Part(
            present=part is not None,
            type_name=clean_text(type(part).__name__, MAX_TYPE_NAME),
            weight_shape=tuple(int(n) for n in weight.shape) if isinstance(weight, torch.Tensor) else None,
            has_bias=isinstance(getattr(part, "bias", None), torch.Tensor),
            same_as=owners.get(id(tensor)) if tensor is not None else None,
            registered=tensor is not None and (id(tensor) in registered or tensor.grad_fn is not None),
        )
        if tensor is not None:
            owners.setdefault(id(tensor), name)
    return parts


def set_weights(module: Any, weights: dict[str, np.ndarray],
                zero_unset: bool) -> tuple[dict[str, Any], tuple[str, ...]]:
    """Set each weight found at its attribute path (`W_q.weight`) that is one of the module's registered
    parameters (by identity: a property or a ModuleDict may hold it); (parameters set, paths that could not be)."""
    torch = _torch()
    registered = {id(p) for p in module.parameters()} if isinstance(module, torch.nn.Module) else set()
    loaded: dict[str, Any] = {}
    unset: list[str] = []
    for path, array in weights.items():
        param = _attribute(module, path)
        if not isinstance(param, torch.Tensor) or id(param) not in registered or tuple(param.shape) != array.shape \
                or any(param is other for other in loaded.values()):
            unset.append(path)
            continue
        with torch.no_grad():
            param.copy_(torch.tensor(array, dtype=param.dtype))
        param.requires_grad_(True)
        loaded[path] = param
    if zero_unset and isinstance(module, torch.nn.Module):
        others = [*module.named_parameters(), *module.named_buffers()]
        with torch.no_grad():
            for _, tensor in others:
                if all(tensor is not p for p in loaded.values()) and tensor.dim() == 1 and tensor.is_floating_point():
                    tensor.zero_()
    return loaded, tuple(unset)


def _attribute(owner: Any, path: str) -> Any:
    for name in path.split("."):
        try:
            owner = getattr(owner, name, None)
        except Exception:  # a property of the student's that raises
            return None
    return owner


def run_module(package: str, request: ModuleRequest, channel: Channel | None) -> Answer:
    """Build an nn.Module, set its weights, run forward and backward, report all as plain data."""
    torch = _torch()
    with Standins(package, request, channel):
        module_file = importlib.import_module(f"{package}.{request.module}")
        cls = getattr(module_file, request.cls)
        instance = cls(*request.init)
        parts = describe_parts(instance, request.parts)
        parameters = ({name: tuple(int(n) for n in p.shape)
                       for name, p in instance.named_parameters(remove_duplicate=False)}
                      if isinstance(instance, torch.nn.Module) else {})
        if request.input is None:  # a probe of the make-up alone
            return Answer(layer=LayerReport(parts, parameters, ()))
        if isinstance(instance, torch.nn.Module) and request.dtype != "float32":
            instance.to(getattr(torch, request.dtype))  # widen as a user calling .double() would
        loaded, unset = set_weights(instance, request.weights, request.zero_unset)
        value = instance(to_tensor(request.input, request.dtype))
        returned = describe(value)
        grads = _backward(value, loaded, request) if request.upstream is not None else {}
    return Answer(returned=returned, layer=LayerReport(parts, parameters, unset, grads))


def _backward(value: Any, loaded: dict[str, Any], request: ModuleRequest) -> dict[str, np.ndarray | None]:
    """Send `upstream` back through the first output; each weight's gradient, None where none arrived."""
    torch = _torch()
    first = value[0] if isinstance(value, (tuple, list)) and value else value
    upstream = request.upstream
    assert upstream is not None  # asked only for a request with one
    if isinstance(first, torch.Tensor) and first.requires_grad and tuple(first.shape) == upstream.shape:
        (first * to_tensor(upstream, request.dtype)).sum().backward()
    return {name: (tensor_numbers(p.grad) if p.grad is not None else None) for name, p in loaded.items()}


def read_constants(package: str, request: ConstantsRequest) -> Answer:
    """Module-level constants, described like returned values (None stays none)."""
    module = importlib.import_module(f"{package}.{request.module}")
    return Answer(constants={name: describe(getattr(module, name, None), integers=True) for name in request.names})


def run_traced(package: str, package_dir: Path, request: TraceRequest, channel: Channel | None = None) -> Trace:
    """The request run again under the line tracer (attnkit/sandbox/tracing.py): its reply and its bindings."""
    with traced(package_dir, request.max_bindings, request.max_numbers) as tracer:
        reply = execute(package, package_dir, request.request, channel)
    return Trace(reply, tuple(tracer.bindings[:protocol.MAX_ITEMS]), tracer.complete)


def execute(package: str, package_dir: Path, request: protocol.Request, channel: Channel | None = None, *,
            interruptible: bool = False) -> protocol.Reply:
    """Run one request against `package`; every outcome becomes a reply.

    `interruptible`: a KeyboardInterrupt goes on up (the grader running the reference in its own process,
    where Ctrl-C must stop the run); in a sandbox, which Ctrl-C never reaches, one is the student's raise.
    The refused routines the request reached (`refusals`; none where nothing is refused) go with its reply.
    """
    refusals.take()  # what an earlier request's threads reached is that request's
    reply = _execute(package, package_dir, request, channel, interruptible)
    return _with_refusals(reply, refusals.take())


def _with_refusals(reply: protocol.Reply, reached: tuple[str, ...]) -> protocol.Reply:
    """An answer names the refused routines its code reached; a failure's message says it reached them."""
    if not reached:
        return reply
    if isinstance(reply, Answer):
        return dataclasses.replace(reply, calls=reached[:protocol.MAX_ITEMS])
    if refusals.is_refusal(reply.message):
        return reply
    said = f"{refusals.MARK} {', '.join(reached[:3])}; then {reply.type}: {reply.message}"
    return dataclasses.replace(reply, message=clean_text(said, MAX_MESSAGE))


def _execute(package: str, package_dir: Path, request: protocol.Request, channel: Channel | None,
             interruptible: bool) -> protocol.Reply:
    try:
        if isinstance(request, CallRequest):
            return run_call(package, request, channel)
        if isinstance(request, ModuleRequest):
            return run_module(package, request, channel)
        return read_constants(package, request)
    except NotImplementedError as error:
        return failure("not-implemented", error, package_dir)
    except SystemExit as error:
        return failure("exited", error, package_dir)
    except BaseException as error:  # the student's code may raise anything
        if interruptible and isinstance(error, KeyboardInterrupt):
            raise
        return failure("crash", error, package_dir)


# --- serving the grader --------------------------------------------------------------------------


def serve(package_root: Path, requests: Any, responses: Any) -> None:
    """Answer requests until the grader closes the stream."""
    sys.path.insert(0, str(package_root))
    package_dir = package_root / "exercises"
    _attribute_warnings(package_dir)

    def channel(call: StandinCall) -> StandinAnswer:
        _flush_output()
        protocol.write(responses, call)
        answer = protocol.read(requests, (StandinAnswer,))
        if answer is None:
            raise EOFError("the grader closed the stream during a stand-in call")
        return answer

    while True:
        request = protocol.read(requests, (CallRequest, ModuleRequest, ConstantsRequest, TraceRequest))
        if request is None:
            return
        reply: protocol.Reply | Trace = run_traced("exercises", package_dir, request, channel) \
            if isinstance(request, TraceRequest) else execute("exercises", package_dir, request, channel)
        _flush_output()
        try:
            protocol.write(responses, reply)
        except protocol.ProtocolError as error:  # e.g. an answer too large to send
            protocol.write(responses, Failure("crash", "AnswerTooLarge", clean_text(error, MAX_MESSAGE), ""))


def _attribute_warnings(package_dir: Path) -> None:
    """Warnings name the student's file and line, not torch's or the kit's files."""
    def show(message, category, filename, lineno, file=None, line=None):
        where = f"{Path(filename).name}, line {lineno}" if Path(filename).parent == package_dir else \
            where_raised(package_dir, traceback.extract_stack())
        print(f"{where or 'warning'}: {category.__name__}: {message}", file=sys.stderr)

    warnings.showwarning = show


def _flush_output() -> None:
    """Send what the student printed before the answer, so it is captured even if the process is then killed."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # the student may have replaced or closed the stream
            pass


def serve_forked(package_root: Path, requests: Any, responses: Any, refused: tuple[str, ...] = ()) -> None:
    """Serve in a process forked from the warm parent: fd 1 and 2 are the output pipe, one torch thread;
    the library routines `refused` names are refused before any of the student's code exists here."""
    if refused:
        refusals.install(refused)
    _torch().set_num_threads(1)
    for stream in (sys.stdout, sys.stderr):
        assert isinstance(stream, io.TextIOWrapper)  # Python's own, before any student code runs
        stream.reconfigure(line_buffering=True)
    _remember_compiled_modules()
    serve(package_root, requests, responses)


def _remember_compiled_modules() -> None:
    """Compiled modules kept in this process's memory, by path and source: a stand-in run imports the
    package afresh, and compiling the student's modules each time costs more than running them. Never on
    disk, where the student's code could plant bytecode of its own for Python to run instead of the source
    the grader read."""
    compiled: dict[tuple[str, bytes], types.CodeType] = {}
    compile_source = importlib.machinery.SourceFileLoader.source_to_code

    def source_to_code(loader: Any, data: Any, path: Any, *, _optimize: int = -1) -> types.CodeType:
        key = (str(path), hashlib.sha256(bytes(data)).digest())
        if key not in compiled:
            compiled[key] = compile_source(loader, data, path, _optimize=_optimize)
        return compiled[key]

    importlib.machinery.SourceFileLoader.source_to_code = source_to_code  # type: ignore[method-assign,assignment]


def main() -> None:
    """Entry point of a sandbox process started afresh: argv is the package root, the response fd, then the
    names of the library routines to refuse."""
    package_root = Path(sys.argv[1])
    responses = os.fdopen(int(sys.argv[2]), "wb")
    requests = os.fdopen(0, "rb")
    serve_forked(package_root, requests, responses, tuple(sys.argv[3:]))
    os._exit(0)


if __name__ == "__main__":
    main()
