"""The trusted side's answers: the reference's, the mistake models', and the stand-ins' numbers.

`ReferenceOracle` runs the reference solutions (copied into a package of its own, in the grader's
process: they are the kit's code, never the student's) and the course's mistake models.
`RecordedOracle` answers from a table made at handout time, so a student's self-check diagnoses
mistakes on the lesson's examples with no solution on their machine: it records numbers only,
never the reference's code or sequence of operations, and it cannot stand in for a dependency.
"""
from __future__ import annotations

import hashlib
import importlib
import inspect
import json
import resource
import secrets
import shutil
import sys
import tempfile
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np

from attnkit.errors import KitError
from attnkit.grading.models import Candidate, ModelLibrary, enumerate_answers, flawed_steps, raising, reference_steps
from attnkit.interrupts import interrupt_held
from attnkit.sandbox import protocol, worker
from attnkit.sandbox.protocol import (
    Answer,
    CallRequest,
    ConstantsRequest,
    ModuleRequest,
    Request,
    Standin,
    StandinAnswer,
    StandinCall,
)
from attnkit.sandbox.values import MAX_MESSAGE, clean_text

REFERENCE_PACKAGE = "attnkit_reference"
MAX_CACHE = 4096
K = TypeVar("K")
V = TypeVar("V")


FlawedRun = tuple[list[np.ndarray], list[tuple[str, np.ndarray]]]  # a flawed model's answer, and its steps

class _Memo(dict[K, V]):
    """What the oracle worked out, by request: every student of a run is asked the same (hidden inputs are
    fresh each run, not each student), so it is worked out once; forgotten all at once past MAX_CACHE
    entries, as what a mistaken student's own answers lead to (stand-in runs, narrowed candidates)
    would otherwise grow it with the class."""

    def remember(self, key: K, work_out: Callable[[], V]) -> V:
        if key not in self:
            if len(self) > MAX_CACHE:
                self.clear()
            self[key] = work_out()
        return self[key]


class NotRecorded(KitError):
    """A self-check asked for an answer the handout did not record (a follow-up question): skip it."""


def request_key(request: Request) -> str:
    """A stable digest of a request: equal requests give equal keys (arrays by their float64 bytes)."""
    digest = hashlib.sha256(type(request).__name__.encode())
    _digest(request, digest)
    return digest.hexdigest()


def _digest(value: Any, digest: Any) -> None:
    if isinstance(value, np.ndarray):
        data = np.ascontiguousarray(value, dtype=np.float64)
        digest.update(b"a" + repr(data.shape).encode() + data.tobytes())
    elif hasattr(value, "__dataclass_fields__"):
        for name in value.__dataclass_fields__:
            digest.update(b"f" + name.encode())
            _digest(getattr(value, name), digest)
    elif isinstance(value, (tuple, list)):
        digest.update(b"(%d" % len(value))
        for item in value:
            _digest(item, digest)
    elif isinstance(value, dict):
        digest.update(b"{%d" % len(value))
        for key in value:
            digest.update(b"k" + str(key).encode())
            _digest(value[key], digest)
    else:
        digest.update(b"v" + repr(value).encode())


class Oracle(Protocol):
    def reference(self, request: Request) -> Answer: ...

    def candidates(self, request: Request, size: int, within: Collection[str] | None = None) -> Iterator[Candidate]: ...

    def crashing(self, request: Request) -> list[str]: ...

    def steps(self, request: Request) -> list[tuple[str, np.ndarray]]: ...

    def flawed_steps(self, request: Request, mistakes: tuple[str, ...]) -> list[FlawedRun]: ...

    @property
    def can_stand_in(self) -> bool: ...

    def standin(self, standin: Standin, call: StandinCall, room: int | None = None) -> StandinAnswer: ...

    def positional(self, standin: Standin, call: StandinCall) -> tuple[Any, ...] | None: ...

    def close(self) -> None: ...


def import_torch_whole() -> None:
    """torch, imported with Ctrl-C held back until the import is done (an interrupt inside its C extension's
    import leaves a half-made module that can crash the process), and on one thread: the reference's
    arithmetic is on tiny tensors, where a thread pool's wake-ups cost a hundred times the work.

    Only the reference needs torch here: a self-check's recorded answers are numbers, so a student's
    `attnkit check` imports torch once, in the sandbox."""
    with interrupt_held():
        import torch

        torch.set_num_threads(1)


class ReferenceOracle:
    """The reference solutions and the course's mistake models, run in this (trusted) process."""

    def __init__(self, solutions_dir: Path, models_dir: Path, known: Collection[str] | None = None):
        """`known`: the catalogue's ids; a model switching any other is refused, naming it."""
        self.solutions_dir = Path(solutions_dir)
        self.models = ModelLibrary(Path(models_dir))
        self.known = set(known) if known is not None else None
        import_torch_whole()
        self._workdir = tempfile.TemporaryDirectory(prefix="attnkit-oracle-")
        # A package name of this oracle's own: a second oracle in the process must not find
        # the first one's package in sys.modules, pointing at a folder since deleted.
        self._package = f"o{secrets.token_hex(4)}_{REFERENCE_PACKAGE}"
        self._answers: _Memo[str, Answer] = _Memo()
        self._candidates: _Memo[tuple[Any, ...], list[Candidate]] = _Memo()
        self._crashing: _Memo[str, list[str]] = _Memo()
        self._steps: _Memo[str, list[tuple[str, np.ndarray]]] = _Memo()
        self._flawed: _Memo[tuple[str, tuple[str, ...]], list[FlawedRun]] = _Memo()

    can_stand_in = True

    def close(self) -> None:
        """Remove the reference's working copy now (a grading worker ends without Python's own clean-up)."""
        self._workdir.cleanup()

    @cached_property
    def _package_dir(self) -> Path:
        target = Path(self._workdir.name) / self._package
        shutil.copytree(self.solutions_dir, target, ignore=shutil.ignore_patterns("__pycache__"))
        sys.path.insert(0, self._workdir.name)
        importlib.invalidate_caches()
        return target

    def reference(self, request: Request) -> Answer:
        """The reference's answer; a reference that fails a grader's request is the course's bug."""
        return self._answers.remember(request_key(request), lambda: self._run_reference(request))

    def _run_reference(self, request: Request) -> Answer:
        reply = worker.execute(self._package, self._package_dir, request, interruptible=True)
        if not isinstance(reply, Answer):
            raise KitError(f"{self.solutions_dir}: the reference failed a grader's request: "
                           f"{reply.status}: {reply.type}: {reply.message} ({reply.where})")
        return reply

    def candidates(self, request: Request, size: int, within: Collection[str] | None = None) -> Iterator[Candidate]:
        """What each configuration of `size` mistakes (of `within`, if given) computes on this request
        (none for constants)."""
        key = (request_key(request), size, tuple(sorted(within)) if within else None)
        return iter(self._candidates.remember(key, lambda: list(self._compute_candidates(request, size, within))))

    def _compute_candidates(self, request: Request, size: int, within: Collection[str] | None) -> Iterator[Candidate]:
        if isinstance(request, ConstantsRequest):
            return
        model = self._model(request)
        if model is None:
            return
        for candidate in enumerate_answers(model, model_arguments(request), size, set(within) if within else None):
            unknown = sorted(m for m in candidate.mistakes if self.known is not None and m not in self.known)
            if unknown:
                raise KitError(f"{self.models.folder / (request.module + '.py')}: the model switches "
                               f"{unknown[0]!r}, which the catalogue does not have")
            yield Candidate(candidate.mistakes, as_values(candidate.answer))

    def crashing(self, request: Request) -> list[str]:
        """The mistakes whose code cannot run on this request at all (it raises where the reference does not)."""
        if isinstance(request, ConstantsRequest):
            return []
        return self._crashing.remember(request_key(request), lambda: self._raising(request))

    def steps(self, request: Request) -> list[tuple[str, np.ndarray]]:
        """The named steps the exercise's model declares, computed on this request with no mistake on:
        the reference's intermediates, in order ([] where the course declares none)."""
        if isinstance(request, ConstantsRequest):
            return []
        return self._steps.remember(request_key(request), lambda: self._reference_steps(request))

    def _reference_steps(self, request: CallRequest | ModuleRequest) -> list[tuple[str, np.ndarray]]:
        model = self._model(request)
        if model is None:
            return []
        return _step_values(reference_steps(model, model_arguments(request)))

    def flawed_steps(self, request: Request, mistakes: tuple[str, ...]) -> list[FlawedRun]:
        """What the model computes with these mistakes on, each spelling: its answer and its named steps
        (a catalogued mistake is located where its own steps part from the reference's)."""
        if isinstance(request, ConstantsRequest):
            return []
        return self._flawed.remember((request_key(request), mistakes), lambda: self._flawed_runs(request, mistakes))

    def _flawed_runs(self, request: CallRequest | ModuleRequest, mistakes: tuple[str, ...]) -> list[FlawedRun]:
        model = self._model(request)
        if model is None or (self.known is not None and not set(mistakes) <= self.known):
            return []
        return [(as_values(answer), _step_values(steps))
                for answer, steps in flawed_steps(model, frozenset(mistakes), model_arguments(request))]

    def _raising(self, request: CallRequest | ModuleRequest) -> list[str]:
        model = self._model(request)
        return raising(model, model_arguments(request)) if model is not None else []

    def _model(self, request: CallRequest | ModuleRequest) -> Any:
        return self.models.model(request.module, request.function if isinstance(request, CallRequest) else request.cls)

    def standin(self, standin: Standin, call: StandinCall, room: int | None = None) -> StandinAnswer:
        """The reference's outputs for a stand-in call, or the gradients of its inputs for a backward one;
        refused, before it is worked out, where the outputs would hold more than `room` numbers."""
        return answer_standin(self._function(standin), call, room)

    def positional(self, standin: Standin, call: StandinCall) -> tuple[Any, ...] | None:
        """A stand-in call's arguments in the reference's order (keywords placed), or None if they do not fit."""
        try:
            bound = inspect.signature(self._function(standin)).bind(*call.args, **call.kwargs)
        except TypeError:
            return None
        bound.apply_defaults()
        return tuple(bound.arguments.values())

    def _function(self, standin: Standin) -> Any:
        self._package_dir  # noqa: B018 (makes the reference importable)
        return getattr(importlib.import_module(f"{self._package}.{standin.module}"), standin.function)


def _step_values(steps: list[tuple[str, Any]]) -> list[tuple[str, np.ndarray]]:
    return [(name, np.asarray(value, dtype=np.float64) if isinstance(value, (int, float)) else as_values(value)[0])
            for name, value in steps]


def answer_standin(function: Any, call: StandinCall, room: int | None = None) -> StandinAnswer:
    """Run `function` (trusted code) on a stand-in call's numbers; float64 throughout.

    `room`: the most numbers the answer may hold. Small inputs can ask for a huge answer (two (4096, 1)
    vectors make 16.7 million scores), so before any number is worked out the heap this call may add to
    the grading worker is fixed (`heap_room`): a call past it fails here, as that student's stand-in
    error, and the worker's memory never grows with it.
    """
    import torch

    backward = call.grad_outputs is not None
    inputs: list[Any] = []

    def tensor(value: Any) -> Any:
        if isinstance(value, np.ndarray):
            made = torch.tensor(value, dtype=torch.float64, requires_grad=backward)
            inputs.append(made)
            return made
        if isinstance(value, tuple):
            return tuple(tensor(v) for v in value)
        return value

    try:
        args = [tensor(a) for a in call.args]
        kwargs = {k: tensor(v) for k, v in call.kwargs.items()}
        with torch.enable_grad(), heap_room(room):
            result = function(*args, **kwargs)
            outputs = list(result) if isinstance(result, (tuple, list)) else [result]
            if call.grad_outputs is None:  # forward
                return StandinAnswer(tuple(_numbers(o) for o in outputs), single=not isinstance(result, (tuple, list)))
            pairs = [(o, torch.tensor(g, dtype=torch.float64)) for o, g in zip(outputs, call.grad_outputs)
                     if g is not None]
            if any(tuple(o.shape) != tuple(g.shape) for o, g in pairs):
                raise ValueError("a gradient whose shape is not its output's")
            # The vector-Jacobian product as the gradient of the sum of outputs times their gradients: the
            # same numbers as grad_outputs gives, without the symbolic-shapes module (and sympy) torch
            # imports for grad_outputs, half a second of each grading worker's time.
            grads = torch.autograd.grad(sum((o * g).sum() for o, g in pairs), inputs, allow_unused=True)
    except MemoryError:
        return StandinAnswer(error=OVER_ROOM)
    except Exception as error:  # the student called the stand-in with arguments the reference refuses
        if isinstance(error, RuntimeError) and "allocate" in str(error):  # torch's allocator, past heap_room
            return StandinAnswer(error=OVER_ROOM)
        return StandinAnswer(error=clean_text(f"{type(error).__name__}: {error}", MAX_MESSAGE))
    return StandinAnswer(tuple(np.zeros(i.shape) if g is None else _numbers(g) for g, i in zip(grads, inputs)),
                         single=False)


OVER_ROOM = "a call whose answer needs more numbers than this check's inputs could lead to (the reference's work " \
            "is the grader's)"
WORKING_COPIES = 8  # float64 copies of the answer the reference's arithmetic may hold at once (and its gradient)
HEAP_SLACK = 32 << 20  # what Python and torch may allocate around the arithmetic


@contextmanager
def heap_room(numbers: int | None) -> Iterator[None]:
    """While inside: this process's heap may grow by at most what `numbers` float64 answers need
    (`WORKING_COPIES` of them, plus `HEAP_SLACK`), as RLIMIT_DATA's soft limit, put back after; a bigger
    allocation fails (MemoryError, or torch's RuntimeError). Linux only (it reads VmData); elsewhere, and
    with `numbers` None, nothing is bounded here."""
    if numbers is None or not sys.platform.startswith("linux"):
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    ceiling = _heap_in_use() + numbers * 8 * WORKING_COPIES + HEAP_SLACK
    if soft != resource.RLIM_INFINITY:
        ceiling = min(ceiling, soft)
    resource.setrlimit(resource.RLIMIT_DATA, (ceiling, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))


def _heap_in_use() -> int:
    """This process's data segment in bytes (what RLIMIT_DATA counts), from /proc/self/status."""
    with open("/proc/self/status", "rb") as status:
        for line in status:
            if line.startswith(b"VmData:"):
                return int(line.split()[1]) * 1024
    raise OSError("no VmData in /proc/self/status")


def _numbers(tensor: Any) -> np.ndarray:
    return tensor.detach().to(dtype=tensor.dtype).double().numpy().copy()


def model_arguments(request: CallRequest | ModuleRequest) -> list[Any]:
    """A request's inputs as the models take them: float64 tensors (a layer: init, weights, x)."""
    import torch

    def tensor(value: Any) -> Any:
        if isinstance(value, np.ndarray):
            return torch.tensor(value, dtype=torch.float64)
        if isinstance(value, tuple):
            return tuple(tensor(v) for v in value)
        return value

    if isinstance(request, CallRequest):
        return [tensor(a) for a in request.args]
    weights = {name: tensor(w) for name, w in request.weights.items()}
    return [tuple(request.init), weights, tensor(request.input)]


def as_values(answer: Any) -> list[np.ndarray]:
    """A model's answer (a tensor or a tuple of them) as a list of float64 arrays."""
    items = answer if isinstance(answer, (tuple, list)) else [answer]
    return [_numbers(item) if hasattr(item, "detach") else np.asarray(item, dtype=np.float64) for item in items]


# --- recorded answers, for the handout ---------------------------------------------------------------


class _NoStandins:
    """A self-check's oracle: it has numbers, not the reference's code, so it cannot stand in for a dependency."""

    can_stand_in = False

    def close(self) -> None:
        """Nothing of a self-check's oracle is on disk."""

    def standin(self, standin: Standin, call: StandinCall, room: int | None = None) -> StandinAnswer:
        raise KitError("a self-check cannot stand in for a dependency")

    def positional(self, standin: Standin, call: StandinCall) -> tuple[Any, ...] | None:
        raise KitError("a self-check cannot stand in for a dependency")


class RecordingOracle(_NoStandins):
    """A ReferenceOracle that keeps, for every request it is asked, the numbers a self-check needs."""

    def __init__(self, inner: ReferenceOracle, sizes: tuple[int, ...] = (1, 2)):
        self.inner = inner
        self.sizes = sizes
        self.table: dict[str, Any] = {}

    records = True  # checks ask it for their follow-up questions' answers up front

    def reference(self, request: Request) -> Answer:
        answer = self.inner.reference(request)
        entry = self.table.setdefault(request_key(request), {
            "reference": _recorded(answer), "candidates": {}, "crashing": self.inner.crashing(request),
            "steps": [[name, value.tolist()] for name, value in self.inner.steps(request)]})
        for size in self.sizes:
            entry["candidates"].setdefault(str(size), [
                [sorted(c.mistakes), [v.tolist() for v in c.answer]] for c in self.inner.candidates(request, size)])
        return answer

    def candidates(self, request: Request, size: int, within: Collection[str] | None = None) -> Iterator[Candidate]:
        return self.inner.candidates(request, size, within)

    def crashing(self, request: Request) -> list[str]:
        return self.inner.crashing(request)

    def steps(self, request: Request) -> list[tuple[str, np.ndarray]]:
        return self.inner.steps(request)

    def flawed_steps(self, request: Request, mistakes: tuple[str, ...]) -> list[FlawedRun]:
        return []  # a self-check locates by the reference's steps alone (the handout holds no model)

    def save(self, path: Path) -> None:
        Path(path).write_text(json.dumps(self.table), encoding="utf-8")


def _recorded(answer: Answer) -> str:
    """Only what a comparison needs: the answer's layout and numbers, never calls or make-up."""
    return protocol.encode(Answer(returned=answer.returned, constants=answer.constants))[protocol.HEADER.size:].decode()


class RecordedOracle(_NoStandins):
    """Answers from a table written by `RecordingOracle`: public checks only, no stand-ins."""

    def __init__(self, path: Path):
        try:
            self.table = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise KitError(f"{path}: cannot read the public checks' expected answers: {error}") from None
        self.path = path

    def _entry(self, request: Request) -> dict[str, Any]:
        entry = self.table.get(request_key(request))
        if entry is None:
            raise NotRecorded(f"{self.path}: no expected answer for a check's request; "
                              "the handout is older than its checks (ask for a new handout)")
        return entry

    def reference(self, request: Request) -> Answer:
        return protocol.decode(self._entry(request)["reference"].encode(), (Answer,))

    def candidates(self, request: Request, size: int, within: Collection[str] | None = None) -> Iterator[Candidate]:
        for mistakes, values in self._entry(request)["candidates"].get(str(size), []):
            if within is None or set(mistakes) <= set(within):
                yield Candidate(frozenset(mistakes), [np.asarray(v, dtype=np.float64) for v in values])

    def crashing(self, request: Request) -> list[str]:
        return list(self._entry(request)["crashing"])

    def flawed_steps(self, request: Request, mistakes: tuple[str, ...]) -> list[FlawedRun]:
        return []

    def steps(self, request: Request) -> list[tuple[str, np.ndarray]]:
        """The lesson's intermediates of a public check, as the handout recorded them (none in an older one)."""
        try:
            recorded = self._entry(request).get("steps", [])
            return [(str(name), np.asarray(value, dtype=np.float64)) for name, value in recorded]
        except (NotRecorded, TypeError, ValueError):
            return []

