"""What runs inside the sandbox, run here on the kit's own code: how returned values are described, how
stand-ins replace a dependency and go away, and how a warning names the student's line."""
from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import torch

from attnkit.sandbox import standins, values, worker
from attnkit.sandbox.protocol import Answer, CallRequest, Failure, Standin, StandinAnswer

NUMBERS = np.arange(6.0).reshape(2, 3)


@pytest.mark.parametrize("value,kind,type_name", [
    (torch.ones(2, 3), "array", "Tensor"),
    (np.ones((2, 3)), "array", "ndarray"),
    ([[1.0, 2.0], [3.0, 4.0]], "array", "list"),
    ((torch.ones(2), torch.ones(3)), "sequence", "tuple"),
    ([torch.ones(2), np.ones(3)], "sequence", "list"),
    ([[1.0, 2.0], [3.0]], "sequence", "list"),
    (None, "none", "NoneType"),
    ({"a": 1}, "other", "dict"),
])
def test_what_came_back_is_described_not_judged(value, kind, type_name):
    returned = values.describe(value)
    assert (returned.kind, returned.type_name) == (kind, type_name)


class _ClaimsFloat(torch.Tensor):
    """A subclass that says it holds float32 numbers, whatever it holds."""

    @property
    def dtype(self):
        return torch.float32


NOT_REAL = {
    "complex": (torch.ones(2, 3) + 7j, "complex64 Tensor"),
    "bool": (torch.ones(2, 3) > 0, "bool Tensor"),
    "integer": (torch.ones(2, 3, dtype=torch.int64), "int64 Tensor"),
    "overflowed-integer": (torch.full((2, 3), 300).to(torch.uint8), "uint8 Tensor"),
    "sparse": (torch.ones(2, 3).to_sparse(), "sparse_coo Tensor"),
    "meta": (torch.empty(2, 3, device="meta"), "meta Tensor"),
    "nested": (torch.nested.as_nested_tensor([torch.ones(2, 3)], layout=torch.jagged), "nested NestedTensor"),
    "lies-about-its-dtype": ((torch.ones(2, 3) + 1j).as_subclass(_ClaimsFloat), "complex64 _ClaimsFloat"),
    "complex-numpy": (np.ones((2, 3)) + 1j, "complex128 ndarray"),
    "bool-numpy": (np.ones((2, 3)) > 0, "bool ndarray"),
}


@pytest.mark.parametrize("value,type_name", NOT_REAL.values(), ids=NOT_REAL.keys())
def test_only_real_numbers_are_numbers(value, type_name):
    """Casting would drop an imaginary part or read True as 1: such an answer is what it is (wrong-type)."""
    returned = values.describe(value)
    assert (returned.kind, returned.type_name, returned.array) == ("other", type_name, None)
    assert values.describe((torch.ones(2), value)).items[1].kind == "other"


def test_a_modules_constants_may_be_integers():
    for value in (torch.ones(2, 3, dtype=torch.int64), np.ones((2, 3), dtype=int), [[2, 0], [0, 1]]):
        assert values.describe(value, integers=True).kind == "array"
    assert values.describe(torch.ones(2) > 0, integers=True).kind == "other"


def test_a_tensor_is_read_without_its_subclass_methods():
    class Liar(torch.Tensor):
        def numpy(self):
            return np.zeros(3)

    assert values.describe(torch.ones(3).as_subclass(Liar)).array.tolist() == [1.0, 1.0, 1.0]


def package(tmp_path: Path, name: str, modules: dict[str, str]) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    for module, source in modules.items():
        (folder / f"{module}.py").write_text(source)
    sys.path.insert(0, str(tmp_path))
    return folder


def test_a_stand_in_replaces_the_dependency_for_one_request_only(tmp_path):
    folder = package(tmp_path, "standin_probe", {
        "low": "def low(x):\n    raise ValueError('the student\\'s own low is broken')\n",
        "high": "from .low import low\n\ndef high(x):\n    return low(x) * 2\n",
    })
    request = CallRequest("high", "high", (NUMBERS,), "float64", (Standin("low", "low"),))
    asked = []

    def channel(call):
        asked.append(call)
        return StandinAnswer((call.args[0] + 1,))

    answer = worker.execute("standin_probe", folder, request, channel)
    assert isinstance(answer, Answer) and answer.returned.array.tolist() == ((NUMBERS + 1) * 2).tolist()
    assert len(asked) == 1 and asked[0].grad_outputs is None
    plain = worker.execute("standin_probe", folder, CallRequest("high", "high", (NUMBERS,), "float64"))
    assert plain.status == "crash" and "broken" in plain.message and plain.where == "low.py, line 2"


def test_gradients_flow_back_through_a_stand_in():
    calls = []

    def channel(call):
        calls.append(call)
        if call.grad_outputs is None:
            return StandinAnswer((call.args[0] * 3,))
        return StandinAnswer((call.grad_outputs[0] * 3,), single=False)

    triple = standins.make_standin(0, "low.low", channel)
    x = torch.ones(2, requires_grad=True, dtype=torch.float64)
    triple(x).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0] and [c.grad_outputs is not None for c in calls] == [False, True]


def test_a_warning_names_the_students_line_not_the_kits_files(tmp_path, capsys):
    folder = package(tmp_path, "warning_probe", {"noisy": "import warnings\n\ndef noisy(x):\n"
                                                          "    warnings.warn('careful')\n    return x\n"})
    saved = warnings.showwarning
    try:
        worker._attribute_warnings(folder)
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            worker.execute("warning_probe", folder, CallRequest("noisy", "noisy", (NUMBERS,)))
    finally:
        warnings.showwarning = saved
    printed = capsys.readouterr().err
    assert "noisy.py, line 4: UserWarning: careful" in printed and "attnkit" not in printed


def test_a_syntax_error_says_its_line_once(tmp_path):
    folder = package(tmp_path, "syntax_probe", {"broken": "def broken(x)\n    return x\n"})
    failure = worker.execute("syntax_probe", folder, CallRequest("broken", "broken", (NUMBERS,)))
    assert failure.status == "crash" and failure.type == "SyntaxError"
    assert failure.where == "broken.py, line 1" and "line 1" not in failure.message


def test_a_keyboard_interrupt_the_students_code_raises_is_its_crash(tmp_path):
    """In a sandbox Ctrl-C never arrives (its own session): a KeyboardInterrupt is the student's own raise."""
    raising = "def softmax(scores, dim=-1):\n    raise KeyboardInterrupt\n"
    folder = package(tmp_path, "interrupting", {"softmax": raising})
    reply = worker.execute("interrupting", folder, CallRequest("softmax", "softmax", (NUMBERS, -1)))
    assert isinstance(reply, Failure) and (reply.status, reply.type) == ("crash", "KeyboardInterrupt")
