"""What crosses between the grader and a sandboxed submission: one typed definition per message.

Grader -> sandbox: `CallRequest`, `ModuleRequest`, `ConstantsRequest`, and `StandinAnswer` (the
grader's numbers for a stand-in call). Sandbox -> grader: `Answer` or `Failure` (the end of a
request) and `StandinCall` (the student's code called a stand-in for a dependency).

Every message travels as one frame: a 4-byte big-endian length, then JSON of
`{"@message": <class name>, <field>: ...}`. Arrays travel as shape and base64 of float64 bytes, so
nan and inf survive and decoding never runs foreign code. `decode` checks a frame against the
typed definition of the messages its reader accepts, field by field (types, sizes, text that is
valid and capped, finite where a number must be): the sandbox's process can write anything to
its pipe, so the trusted end believes nothing it has not checked.
"""
from __future__ import annotations

import base64
import binascii
import functools
import json
import math
import struct
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, Union

import numpy as np

HEADER = struct.Struct(">I")
MAX_FRAME_BYTES = 16 << 20
MAX_ARRAY_ELEMENTS = 1 << 20
MAX_DIMENSIONS = 8
MAX_TEXT = 2000          # characters of one string (messages are capped before they are sent)
MAX_ITEMS = 256          # entries of one list or table
MAX_DEPTH = 8            # nesting of values
ARRAY_TAG = "__ndarray__"
MESSAGE_TAG = "@message"  # no message class has a field of this name

FAILURE_STATUSES = ("crash", "not-implemented", "exited", "timeout", "malformed-reply")
RETURNED_KINDS = ("array", "sequence", "none", "other")


class ProtocolError(Exception):
    """A frame that is not what the protocol promises."""


# A value an argument may hold: plain data and arrays, nested in tuples.
Value = Union[None, bool, int, float, str, np.ndarray, tuple]  # noqa: UP007  (the decoder compares with this object)


# --- grader -> sandbox ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Standin:
    """Replace `exercises.<module>.<function>` by a stand-in whose numbers come from the grader."""

    module: str
    function: str


@dataclass(frozen=True)
class CallRequest:
    """Call `exercises.<module>.<function>(*args)`; arrays become tensors of `dtype`."""

    module: str
    function: str
    args: tuple[Value, ...]
    dtype: str = "float32"
    standins: tuple[Standin, ...] = ()


@dataclass(frozen=True)
class ModuleRequest:
    """Build `exercises.<module>.<cls>(*init)`, describe `parts`, set `weights`, run it on `input`.

    Weights are set only through the module's registered parameters (`named_parameters()`), so a
    projection the module does not own stays as the student built it. With `upstream`, that
    gradient is sent back through the first output and the weights' gradients are reported (the
    weights set are made trainable first: a frozen projection is the student's right). With
    `zero_unset`, every floating 1-D parameter or buffer the weights do not name is zeroed first.
    `input` None: build and describe only.
    """

    module: str
    cls: str
    init: tuple[Value, ...]
    parts: tuple[str, ...]
    weights: dict[str, np.ndarray]
    input: np.ndarray | None
    upstream: np.ndarray | None = None
    dtype: str = "float32"
    zero_unset: bool = False
    standins: tuple[Standin, ...] = ()


@dataclass(frozen=True)
class ConstantsRequest:
    """Read module-level constants as numbers."""

    module: str
    names: tuple[str, ...]


Request = CallRequest | ModuleRequest | ConstantsRequest


@dataclass(frozen=True)
class TraceRequest:
    """Run `request` again under a line tracer limited to the package's own files (a wrong answer only).

    The reply is a `Trace`: where the student's code bound which numbers. At most `max_bindings`
    bindings are kept, each value of at most `max_numbers` numbers (larger ones keep their shape only).
    """

    request: CallRequest | ModuleRequest
    max_bindings: int = 200
    max_numbers: int = 4096

    @property
    def module(self) -> str:
        return self.request.module

    @property
    def standins(self) -> tuple[Standin, ...]:
        """The stand-ins the traced request offers (its stand-in calls are answered as the request's)."""
        return self.request.standins


@dataclass(frozen=True)
class StandinAnswer:
    """The grader's answer to a stand-in call: the reference's outputs (or gradients), or why not.

    `single` says the reference returned one array, not a tuple of them.
    """

    values: tuple[np.ndarray, ...] = ()
    single: bool = True
    error: str = ""


# --- sandbox -> grader ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Returned:
    """What a student's function returned, described without judging it (the grader judges).

    kind "array": `array` holds the numbers (a tensor, an ndarray, a number, a nested list of
    numbers); "sequence": a tuple or list whose `items` are described one level down; "none";
    "other": anything else, named by `type_name`.
    """

    kind: str
    type_name: str
    array: np.ndarray | None = None
    dtype: str = ""
    items: tuple[Returned, ...] = ()
    requires_grad: bool = False


@dataclass(frozen=True)
class Part:
    """One named part of a module (`W_q`...) as the sandbox found it. Evidence that may only condemn."""

    present: bool
    type_name: str
    weight_shape: tuple[int, ...] | None
    has_bias: bool
    same_as: str | None
    registered: bool  # its weight (or itself, a bare tensor) is a parameter of the module, or computed from them


@dataclass(frozen=True)
class LayerReport:
    """A module's make-up, which weights could be set through its parameters, and their gradients."""

    parts: dict[str, Part]
    parameters: dict[str, tuple[int, ...]]
    unset: tuple[str, ...]
    grads: dict[str, np.ndarray | None] = field(default_factory=dict)


@dataclass(frozen=True)
class Answer:
    """A request that ran to the end.

    `inputs_after`: each array argument after the call where the call changed it, else None; `calls`: the
    refused library routines the code reached while it ran (`refusals`: evidence that may add to a
    finding, never clear one); `layer`: for a ModuleRequest; `constants`: for a ConstantsRequest.
    """

    returned: Returned | None = None
    inputs_after: tuple[np.ndarray | None, ...] = ()
    calls: tuple[str, ...] = ()
    layer: LayerReport | None = None
    constants: dict[str, Returned] = field(default_factory=dict)

    @property
    def status(self) -> str:
        """"ok", beside a Failure's status, so a reply's outcome reads one way."""
        return "ok"


@dataclass(frozen=True)
class Failure:
    """A request that did not answer: crash, not-implemented, exited, timeout or malformed-reply."""

    status: str
    type: str = ""
    message: str = ""
    where: str = ""


@dataclass(frozen=True)
class StandinCall:
    """The student's code called a stand-in: forward (`grad_outputs` None) or its backward pass."""

    standin: int
    args: tuple[Value, ...]
    kwargs: dict[str, Value]
    grad_outputs: tuple[np.ndarray | None, ...] | None = None


Reply = Answer | Failure


@dataclass(frozen=True)
class Binding:
    """One value the student's code bound: in which of its files and on which line, under which name
    (`return` for a returned value), the value's shape, and its numbers where they fit the cap.

    Evidence for the words of the feedback only: a line the grader cannot find in the file it read is
    dropped, and nothing here changes a score."""

    file: str
    line: int
    name: str
    shape: tuple[int, ...]
    value: np.ndarray | None = None  # a number travels as an array of one (arrays travel at least 1-D)
    alias: str = ""  # the local that already held this very object (`e = shifted`), if one did


@dataclass(frozen=True)
class Trace:
    """The reply to a `TraceRequest`: the traced run's own reply, and its bindings in the order made.

    `complete` is False where a cap cut the record short or the tracer was taken away."""

    reply: Answer | Failure
    bindings: tuple[Binding, ...] = ()
    complete: bool = True


FROM_GRADER = (CallRequest, ModuleRequest, ConstantsRequest, StandinAnswer, TraceRequest)
FROM_SANDBOX = (Answer, Failure, StandinCall, Trace)
MESSAGES = {cls.__name__: cls for cls in (*FROM_GRADER, *FROM_SANDBOX)}
NESTED = {cls.__name__: cls for cls in (Standin, Returned, Part, LayerReport, Binding)}


# --- encoding ------------------------------------------------------------------------------------


def encode(message: Any) -> bytes:
    """One frame holding `message` (a dataclass of this module)."""
    body = json.dumps(_plain(message, tagged=True), allow_nan=False, ensure_ascii=True).encode("ascii")
    if len(body) > MAX_FRAME_BYTES:
        raise ProtocolError(f"a message of {len(body)} bytes is over the limit of {MAX_FRAME_BYTES}")
    return HEADER.pack(len(body)) + body


def _plain(value: Any, tagged: bool = False) -> Any:
    if isinstance(value, np.ndarray):
        data = np.ascontiguousarray(value, dtype=np.float64)
        return {ARRAY_TAG: [list(data.shape), base64.b64encode(data.tobytes()).decode("ascii")]}
    names = _field_names(type(value))
    if names:
        record = {name: _plain(getattr(value, name)) for name in names}
        return {MESSAGE_TAG: type(value).__name__, **record} if tagged else record
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, float) and not math.isfinite(value):
        return _plain(np.array(value))  # JSON has no nan: a 0-d array carries it
    return value


def _field_names(cls: type) -> tuple[str, ...]:
    """A message class's field names, in order; () for anything that is not one of this module's dataclasses."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls)) if hasattr(cls, "__dataclass_fields__") else ()
    return names


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # a few classes: the messages and the plain types inside them


# --- decoding and validation ---------------------------------------------------------------------


def decode(body: bytes, accepted: tuple[type, ...]) -> Any:
    """The message in a frame's body, checked against the typed definitions in `accepted`."""
    try:
        record = json.loads(body.decode("utf-8"), parse_constant=_no_constant)
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
        raise ProtocolError(f"not JSON: {_short(error)}") from None
    if not isinstance(record, dict) or not isinstance(record.get(MESSAGE_TAG), str):
        raise ProtocolError("a frame that names no message")
    cls = MESSAGES.get(record[MESSAGE_TAG])
    if cls not in accepted:
        raise ProtocolError(f"unexpected message {_short(record[MESSAGE_TAG])!r}")
    del record[MESSAGE_TAG]
    message = _reader(cls)(record, cls.__name__, 0)
    _check_semantics(message)
    return message


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


def _short(value: Any) -> str:
    return str(value)[:80]


# Where a value sits in a message: the message's name, or (where its container sits, field name or index).
# Put into words only when something is wrong there: most replies are right, and building the words of
# every field of every reply cost more than reading it.
Where = Union[str, tuple]  # noqa: UP007
Reader = Callable[[Any, Where, int], Any]


def _where(where: Where) -> str:
    keys = []
    while isinstance(where, tuple):
        where, key = where
        keys.append(f"[{key}]" if isinstance(key, int) else f".{_short(key)}")
    return where + "".join(reversed(keys))


@functools.cache
def _reader(kind: Any) -> Reader:
    """The reader of one annotation (`value` read as `kind`, or ProtocolError naming where it is not),
    worked out once: every reply is read against the same few types."""
    if kind == Value:
        return _read_value
    origin = typing.get_origin(kind)
    if origin in (Union, types.UnionType):
        return _union_reader(typing.get_args(kind))
    if origin is tuple:
        return _tuple_reader(_reader(typing.get_args(kind)[0]))
    if origin is dict:
        return _dict_reader(_reader(typing.get_args(kind)[1]))
    if kind in _SCALAR_READERS:
        return _SCALAR_READERS[kind]
    if hasattr(kind, "__dataclass_fields__"):
        return _dataclass_reader(kind)
    raise TypeError(f"no rule to read {kind!r}")  # a bug in this module's definitions (the round-trip tests meet it)


def _deep(where: Where, depth: int) -> None:
    if depth > MAX_DEPTH * 3:
        raise ProtocolError(f"{_where(where)}: nested too deeply")


def _tuple_reader(item: Reader) -> Reader:
    def read(value: Any, where: Where, depth: int) -> tuple[Any, ...]:
        _deep(where, depth)
        return tuple([item(v, (where, i), depth + 1) for i, v in enumerate(_list(value, where))])
    return read


def _dict_reader(item: Reader) -> Reader:
    def read(value: Any, where: Where, depth: int) -> dict[str, Any]:
        _deep(where, depth)
        return {_text(k, where): item(v, (where, k), depth + 1) for k, v in _table(value, where).items()}
    return read


def _union_reader(options: tuple[Any, ...]) -> Reader:
    nullable = type(None) in options
    readers = [_reader(o) for o in options if o is not type(None)]

    def read(value: Any, where: Where, depth: int) -> Any:
        if value is None and nullable:
            return None
        problems = []
        for reader in readers:
            try:
                return reader(value, where, depth)
            except ProtocolError as error:
                problems.append(str(error))
        raise ProtocolError(problems[0] if problems else f"{_where(where)}: unexpected null")
    return read


def _dataclass_reader(cls: type) -> Reader:
    names = _field_names(cls)
    known = frozenset(names)

    def read(record: Any, where: Where, depth: int) -> Any:
        _deep(where, depth)
        if not isinstance(record, dict):
            raise ProtocolError(f"{_where(where)}: expected an object")
        if record.keys() != known:
            _refuse_fields(record, names, where)
        return cls(**{name: reader(record[name], (where, name), depth + 1) for name, reader in _field_readers(cls)})
    return read


@functools.cache
def _field_readers(cls: type) -> tuple[tuple[str, Reader], ...]:
    """Each field's reader; worked out at the first read, not with the class's own reader, since a
    message may hold its own kind (`Returned.items`)."""
    hints = typing.get_type_hints(cls)
    return tuple((name, _reader(hints[name])) for name in _field_names(cls))


def prepare_readers() -> None:
    """Work out every message's readers now: the sandboxes' warm parent does, so no sandbox spends its
    first milliseconds on it."""
    for cls in (*MESSAGES.values(), *NESTED.values()):
        _field_readers(cls)


def _refuse_fields(record: dict[str, Any], names: tuple[str, ...], where: Where) -> None:
    extra = record.keys() - set(names)
    if extra:
        raise ProtocolError(f"{_where(where)}: unknown field {_short(sorted(extra)[0])!r}")
    missing = next(name for name in names if name not in record)
    raise ProtocolError(f"{_where((where, missing))}: missing")


def _read_bool(value: Any, where: Where, depth: int) -> bool:
    if not isinstance(value, bool):
        raise ProtocolError(f"{_where(where)}: expected true or false")
    return value


def _read_int(value: Any, where: Where, depth: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or abs(value) > 1 << 31:
        raise ProtocolError(f"{_where(where)}: expected an integer")
    return value


def _read_float(value: Any, where: Where, depth: int) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        raise ProtocolError(f"{_where(where)}: expected a finite number")
    return float(value)


def _read_value(value: Any, where: Where, depth: int) -> Any:
    _deep(where, depth)
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return _text(value, where)
    if isinstance(value, int):
        return _read_int(value, where, depth)
    if isinstance(value, float):
        return _read_float(value, where, depth)
    if isinstance(value, dict):
        return _array(value, where)
    if isinstance(value, list):
        return tuple([_read_value(v, (where, i), depth + 1) for i, v in enumerate(_list(value, where))])
    raise ProtocolError(f"{_where(where)}: not a value")


def _list(value: Any, where: Where) -> list[Any]:
    if not isinstance(value, list):
        raise ProtocolError(f"{_where(where)}: expected a list")
    if len(value) > MAX_ITEMS:
        raise ProtocolError(f"{_where(where)}: more than {MAX_ITEMS} items")
    return value


def _table(value: Any, where: Where) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ProtocolError(f"{_where(where)}: expected an object")
    if len(value) > MAX_ITEMS:
        raise ProtocolError(f"{_where(where)}: more than {MAX_ITEMS} entries")
    return value


def _text(value: Any, where: Where) -> str:
    """A string that is short and valid Unicode (no lone surrogates, which cannot be written as UTF-8)."""
    if not isinstance(value, str):
        raise ProtocolError(f"{_where(where)}: expected a string")
    if len(value) > MAX_TEXT:
        raise ProtocolError(f"{_where(where)}: a string of {len(value)} characters is over the limit of {MAX_TEXT}")
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ProtocolError(f"{_where(where)}: a string that is not valid Unicode") from None
    return value


def _array(value: Any, where: Where) -> np.ndarray:
    if not isinstance(value, dict) or len(value) != 1 or ARRAY_TAG not in value:
        raise ProtocolError(f"{_where(where)}: expected an array")
    tagged = value[ARRAY_TAG]
    if not (isinstance(tagged, list) and len(tagged) == 2 and isinstance(tagged[0], list)
            and isinstance(tagged[1], str)):
        raise ProtocolError(f"{_where(where)}: a malformed array")
    shape, payload = tagged
    if len(shape) > MAX_DIMENSIONS or not all(
            isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= MAX_ARRAY_ELEMENTS for n in shape):
        raise ProtocolError(f"{_where(where)}: a malformed array shape")
    size = math.prod(shape)
    if size > MAX_ARRAY_ELEMENTS or len(payload) != 4 * math.ceil(size * 8 / 3):
        raise ProtocolError(f"{_where(where)}: an array whose data does not fit its shape")
    try:
        raw = base64.b64decode(payload.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise ProtocolError(f"{_where(where)}: an array whose data is not base64") from None
    if len(raw) != size * 8:  # padding can make a payload of the right length hold fewer bytes
        raise ProtocolError(f"{_where(where)}: an array whose data does not fit its shape")
    return np.frombuffer(raw, dtype=np.float64).reshape(shape).copy()


_SCALAR_READERS: dict[Any, Reader] = {
    np.ndarray: lambda value, where, depth: _array(value, where),
    str: lambda value, where, depth: _text(value, where),
    bool: _read_bool,
    int: _read_int,
    float: _read_float,
}


def _check_semantics(message: Any) -> None:
    """What types alone do not say: known statuses and kinds, shapes that are shapes."""
    if isinstance(message, Failure) and message.status not in FAILURE_STATUSES:
        raise ProtocolError(f"Failure.status: unknown status {_short(message.status)!r}")
    if isinstance(message, Trace):
        _check_semantics(message.reply)
        for binding in message.bindings:
            if binding.line < 1 or any(n < 0 for n in binding.shape) or len(binding.shape) > MAX_DIMENSIONS or (
                    binding.value is not None and binding.value.size != math.prod(binding.shape)):
                raise ProtocolError("Binding: a line or shape that is not one")
    if isinstance(message, Answer):
        for returned in ([message.returned] if message.returned else []) + list(message.constants.values()):
            _check_returned(returned, 0)
        if message.layer is not None:
            shapes = [p.weight_shape for p in message.layer.parts.values() if p.weight_shape is not None]
            if any(n < 0 for shape in [*shapes, *message.layer.parameters.values()] for n in shape):
                raise ProtocolError("LayerReport: a negative size")


def _check_returned(returned: Returned, depth: int) -> None:
    if returned.kind not in RETURNED_KINDS:
        raise ProtocolError(f"Returned.kind: unknown kind {_short(returned.kind)!r}")
    if (returned.kind == "array") != (returned.array is not None) or depth > MAX_DEPTH:
        raise ProtocolError("Returned: an inconsistent description")
    for item in returned.items:
        _check_returned(item, depth + 1)


# --- framing on streams --------------------------------------------------------------------------


def write(stream: typing.BinaryIO, message: Any) -> None:
    stream.write(encode(message))
    stream.flush()


def read(stream: typing.BinaryIO, accepted: tuple[type, ...]) -> Any:
    """One framed message from a blocking stream; None at its end."""
    header = stream.read(HEADER.size)
    if not header:
        return None
    if len(header) < HEADER.size:
        raise ProtocolError("a truncated frame header")
    body = stream.read(frame_length(header))
    return decode(body, accepted)


def frame_length(header: bytes) -> int:
    """The body length a frame header announces, refused when over the limit."""
    (length,) = HEADER.unpack(header)
    if length > MAX_FRAME_BYTES:
        raise ProtocolError(f"a frame of {length} bytes is over the limit of {MAX_FRAME_BYTES}")
    return length
