"""The sandbox protocol's one serialisation and its validator at the trusted end, without a sandbox.

Every message survives encode then decode unchanged; anything else a frame may hold is a
ProtocolError naming where it is wrong (which the runner turns into that student's malformed reply).
The end-to-end forgeries are in tests/adversarial/ (malformed-reply--*).
"""
from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from attnkit.sandbox import connection, protocol
from attnkit.sandbox.protocol import (
    FROM_GRADER,
    FROM_SANDBOX,
    HEADER,
    Answer,
    CallRequest,
    ConstantsRequest,
    Failure,
    LayerReport,
    ModuleRequest,
    Part,
    ProtocolError,
    Returned,
    Standin,
    StandinAnswer,
    StandinCall,
)
from kit import InProcessSandbox, reference_submission

GRID = np.arange(6.0).reshape(2, 3)
MESSAGES = [
    CallRequest("softmax", "softmax", (GRID, -1, None, "x", True, 2.5, (GRID, (1, 2))), "float64",
                (Standin("softmax", "softmax"),)),
    ModuleRequest("projection", "SelfAttention", (4, 2), ("W_q", "W_k"), {"W_q.weight": GRID}, GRID,
                  upstream=np.ones((2, 3)), zero_unset=True),
    ConstantsRequest("cake", ("weights", "output")),
    StandinAnswer((GRID, np.zeros(0)), single=False),
    StandinAnswer(error="TypeError: no"),
    Answer(Returned("sequence", "tuple", items=(Returned("array", "Tensor", GRID, "float32", requires_grad=True),
                                                Returned("none", "NoneType"))),
           inputs_after=(GRID, None), calls=("torch.softmax",),
           layer=LayerReport({"W_q": Part(True, "Linear", (2, 4), False, None, True)}, {"W_q.weight": (2, 4)},
                             ("W_v",), {"W_q.weight": GRID, "W_k.weight": None}),
           constants={"weights": Returned("array", "ndarray", GRID, "float64")}),
    Failure("crash", "ValueError", "shapes do not match", "exercises/softmax.py:3"),
    StandinCall(0, (GRID,), {"dim": -1}, grad_outputs=(GRID, None)),
]


def body(message) -> bytes:
    return protocol.encode(message)[HEADER.size:]


def edited(message, change) -> bytes:
    """`message` encoded, its JSON record changed by `change`, encoded again (as a forger would)."""
    record = json.loads(body(message))
    change(record)
    return json.dumps(record).encode()


def accepted(message) -> tuple[type, ...]:
    return FROM_GRADER if isinstance(message, FROM_GRADER) else FROM_SANDBOX


def same(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and np.array_equal(a, b)
    if hasattr(a, "__dataclass_fields__"):
        return type(a) is type(b) and all(same(getattr(a, f), getattr(b, f)) for f in a.__dataclass_fields__)
    if isinstance(a, (tuple, list)):
        return type(a) is type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b and type(a) is type(b)


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: type(m).__name__)
def test_every_message_comes_back_as_it_was_sent(message):
    assert same(protocol.decode(body(message), accepted(message)), message)


def test_a_message_of_the_other_side_is_refused():
    with pytest.raises(ProtocolError, match="unexpected message 'CallRequest'"):
        protocol.decode(body(MESSAGES[0]), FROM_SANDBOX)


FAILURE = Failure("crash", "ValueError", "no")
ANSWER = next(m for m in MESSAGES if isinstance(m, Answer))
FORGED = {  # what a forger writes to the pipe -> what the refusal names
    "not JSON": (b"{", "not JSON"),
    "NaN": (b'{"@message": "Failure", "status": NaN}', "not JSON"),
    "no message name": (b"[1, 2]", "names no message"),
    "unknown status": (edited(FAILURE, lambda r: r.update(status="passed")), "unknown status"),
    "missing field": (edited(FAILURE, lambda r: r.pop("type")), "Failure.type: missing"),
    "extra field": (edited(FAILURE, lambda r: r.update(score=100)), "unknown field 'score'"),
    "number where text belongs": (edited(FAILURE, lambda r: r.update(message=7)), "Failure.message: expected a string"),
    "lone surrogate": (edited(FAILURE, lambda r: r.update(message="\ud800")), "not valid Unicode"),
    "text over the cap": (edited(FAILURE, lambda r: r.update(message="x" * 5000)), "over the limit"),
    "text where a list belongs": (edited(ANSWER, lambda r: r.update(calls="torch.softmax")), "expected a list"),
    "null inside a list of text": (edited(ANSWER, lambda r: r.update(calls=[None])), "expected a string"),
    "boolean where a size belongs": (
        edited(ANSWER, lambda r: r["layer"]["parameters"].update({"W_q.weight": [True, 4]})), "expected an integer"),
    "negative size": (
        edited(ANSWER, lambda r: r["layer"]["parameters"].update({"W_q.weight": [-1, 4]})), "a negative size"),
    "array data that does not fit its shape": (
        edited(ANSWER, lambda r: r["returned"]["items"][0]["array"]["__ndarray__"].__setitem__(0, [3, 3])),
        "does not fit its shape"),
    "array data short of its shape behind base64 padding": (
        edited(ANSWER, lambda r: r["returned"]["items"][0]["array"].update(__ndarray__=[[1], "AAAAAAAAAA=="])),
        "does not fit its shape"),
    "unknown kind": (edited(ANSWER, lambda r: r["returned"].update(kind="verdict")), "unknown kind"),
    "array kind without an array": (
        edited(ANSWER, lambda r: r["returned"]["items"][0].update(array=None)), "inconsistent"),
    "too many items": (edited(ANSWER, lambda r: r.update(calls=["a"] * 300)), "more than 256 items"),
}


@pytest.mark.parametrize("forged, named", FORGED.values(), ids=FORGED.keys())
def test_a_forged_frame_is_refused_naming_what_is_wrong(forged, named):
    with pytest.raises(ProtocolError, match=named):
        protocol.decode(forged, FROM_SANDBOX)


def test_values_nested_past_the_limit_are_refused():
    deep: list = [1.0]
    for _ in range(40):
        deep = [deep]
    forged = edited(StandinCall(0, (), {}), lambda r: r.update(args=[deep]))
    with pytest.raises(ProtocolError, match="nested too deeply"):
        protocol.decode(forged, FROM_SANDBOX)


def test_a_frame_header_over_the_limit_is_refused_before_reading_the_body():
    with pytest.raises(ProtocolError, match="over the limit"):
        protocol.frame_length(HEADER.pack(protocol.MAX_FRAME_BYTES + 1))


# --- a reply checked against its request (connection._fits): what the grader's checks read must be there ------

LAYER_REQUEST = ModuleRequest("projection", "SelfAttention", (4, 2), ("W_q", "W_k", "W_v"),
                              {f"{p}.weight": np.full((2, 4), 0.1) for p in ("W_q", "W_k", "W_v")},
                              np.ones((3, 4)), upstream=np.ones((3, 2)))
CALL_REQUEST = CallRequest("softmax", "softmax", (GRID, -1))


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    return InProcessSandbox(reference_submission(tmp_path_factory.mktemp("reference")))


def honest_reply(reference, request):
    """What an honest worker answers: the reference, run in this process as the worker runs it."""
    reply = reference.run(request)
    assert isinstance(reply, Answer), reply
    return reply


def forged_layer(reference, change):
    reply = honest_reply(reference, LAYER_REQUEST)
    return replace(reply, layer=replace(reply.layer, **change(reply.layer)))


FORGED_FITS = {
    "gradients left out": lambda ref: (LAYER_REQUEST, forged_layer(ref, lambda layer: {"grads": {}})),
    "a gradient of another shape": lambda ref: (LAYER_REQUEST, forged_layer(
        ref, lambda layer: {"grads": {name: np.ones(2) for name in layer.grads}})),
    "a weight said unset that was never sent": lambda ref: (LAYER_REQUEST, forged_layer(
        ref, lambda layer: {"unset": ("W_o.weight",)})),
    "parts other than asked": lambda ref: (LAYER_REQUEST, forged_layer(ref, lambda layer: {"parts": {}})),
    "an input changed to another shape": lambda ref: (CALL_REQUEST, replace(
        honest_reply(ref, CALL_REQUEST), inputs_after=(np.ones(2), None))),
}


def test_an_honest_reply_fits_its_request(reference):
    for request in (LAYER_REQUEST, CALL_REQUEST):
        assert connection._fits(honest_reply(reference, request), request)


@pytest.mark.parametrize("forge", FORGED_FITS.values(), ids=FORGED_FITS.keys())
def test_a_reply_that_does_not_fit_its_request_is_refused(reference, forge):
    request, reply = forge(reference)
    with pytest.raises(ProtocolError, match="does not answer its request"):
        connection._fits(reply, request)
