"""The wire format between the grader and a sandboxed submission.

Messages are length-prefixed JSON. Arrays travel as dtype, shape and base64 of
their bytes, so nan and inf survive and decoding never runs foreign code.
"""
from __future__ import annotations

import base64
import json
import struct
from typing import Any, BinaryIO

import numpy as np

ARRAY_TAG = "__ndarray__"
HEADER = struct.Struct(">I")
MAX_MESSAGE_BYTES = 64 * 1024 * 1024


class ProtocolError(Exception):
    """A message that is not what the protocol promises."""


def encode_array(array: np.ndarray) -> dict[str, Any]:
    """A JSON-safe form of a numeric array (always sent as float64)."""
    data = np.ascontiguousarray(array, dtype=np.float64)
    return {ARRAY_TAG: [list(data.shape), base64.b64encode(data.tobytes()).decode("ascii")]}


def decode_array(tagged: dict[str, Any]) -> np.ndarray:
    """The array `encode_array` sent, checked for a consistent size."""
    try:
        shape, payload = tagged[ARRAY_TAG]
        shape = tuple(int(n) for n in shape)
        raw = base64.b64decode(payload.encode("ascii"), validate=True)
        array = np.frombuffer(raw, dtype=np.float64)
        return array.reshape(shape).copy()
    except (ValueError, TypeError, KeyError) as error:
        raise ProtocolError(f"bad array: {error}") from None


def to_wire(value: Any) -> Any:
    """Replace numpy arrays inside dicts and lists by their tagged form."""
    if isinstance(value, np.ndarray):
        return encode_array(value)
    if isinstance(value, dict):
        return {str(k): to_wire(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_wire(v) for v in value]
    return value


def from_wire(value: Any) -> Any:
    """Inverse of `to_wire`."""
    if isinstance(value, dict):
        if ARRAY_TAG in value:
            return decode_array(value)
        return {k: from_wire(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_wire(v) for v in value]
    return value


def dumps(message: Any) -> bytes:
    """One framed message."""
    body = json.dumps(to_wire(message), allow_nan=True).encode("utf-8")
    return HEADER.pack(len(body)) + body


def write_message(stream: BinaryIO, message: Any) -> None:
    stream.write(dumps(message))
    stream.flush()


def parse_body(body: bytes) -> Any:
    """Decode one message body; anything malformed is a ProtocolError."""
    try:
        return from_wire(json.loads(body.decode("utf-8")))
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
        raise ProtocolError(f"unreadable message: {error}") from None


def read_message(stream: BinaryIO) -> Any:
    """Read one framed message; None at end of stream."""
    header = stream.read(HEADER.size)
    if not header:
        return None
    if len(header) < HEADER.size:
        raise ProtocolError("truncated header")
    (length,) = HEADER.unpack(header)
    if length > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"message of {length} bytes is over the limit")
    body = stream.read(length)
    if len(body) < length:
        raise ProtocolError("truncated message")
    return parse_body(body)
