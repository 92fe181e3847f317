"""The routines an exercise forbids are refused in its sandbox at torch's dispatcher, however reached.

One probe module holds a route to the library's softmax a line (a thread, a Tensor subclass's
`__torch_function__`, torch.ops under inference_mode, a dispatch mode answering with torch's own
decompositions, a vmap, TorchScript, sparse and nested layouts, ...) and honest softmaxes beside
them. In a sandbox that refuses the softmax exercise's names every route fails with a refusal (or
its answer names what it reached); in one that refuses nothing (attention, projection) every route
answers; the honest ones answer in both. The refusal is installed in the sandbox only: this
process's torch keeps its softmax (`plan` only looks).
"""
from __future__ import annotations

import inspect
import textwrap
from pathlib import Path

import numpy as np
import pytest
import torch
import torch._refs

from attnkit.grading.attempt import call
from attnkit.sandbox import refusals
from attnkit.sandbox.protocol import Answer, Failure
from attnkit.sandbox.runner import Limits, SandboxedSubmission
from kit import CATALOGUE

FORBID = tuple(CATALOGUE["softmax-builtin"].forbid)
LIMITS = Limits(call_timeout=20.0, memory_mb=1200)

PROBE = '''
import threading
import torch
import torch._decomp
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

NAME = "".join(map(chr, (115, 111, 102, 116, 109, 97, 120)))

def plain(x):
    return torch.softmax(x, -1)

def method(x):
    return getattr(x, NAME)(-1)

def log_then_exp(x):
    return F.log_softmax(x, -1).exp()

def softmin_of_negated(x):
    return F.softmin(-x, -1)

def on_a_thread(x):
    out = []
    thread = threading.Thread(target=lambda: out.append(getattr(torch, NAME)(x, -1)))
    thread.start()
    thread.join()
    return out[0]

class Sneaky(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func is torch.exp:
            return getattr(torch, NAME)(args[0].as_subclass(torch.Tensor), -1)
        return super().__torch_function__(func, types, args, kwargs or {})

def in_torch_function(x):
    return torch.exp(x.as_subclass(Sneaky))

def ops_in_inference_mode(x):
    with torch.inference_mode():
        return torch.ops.aten._softmax.default(x, -1, False).clone()

class Decomposing(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        table = torch._decomp.decomposition_table
        return table[func](*args, **(kwargs or {})) if func in table else func(*args, **(kwargs or {}))

def decomposed(x):
    with Decomposing():
        return torch.softmax(x, -1)

def python_reference(x):
    import torch._refs
    return torch._refs.softmax(x, -1)

def vmapped(x):
    return torch.vmap(lambda row: torch.softmax(row, 0))(x)

def torchscript(x):
    return torch.jit.CompilationUnit("def f(x):\\n    return x.softmax(-1)\\n").f(x)

def sparse(x):
    return torch.sparse.softmax((x + 1.0).to_sparse(), 1).to_dense()  # no zero left out: shifted

def nested(x):
    return torch.nested.as_nested_tensor([x], layout=torch.jagged).softmax(-1).unbind()[0]

def attention_kernel(x):
    eye = torch.eye(x.shape[-1], dtype=x.dtype)
    return F.scaled_dot_product_attention(x[None], eye[None], eye[None], scale=1.0)[0]

def categorical(x):
    return torch.distributions.Categorical(logits=x).probs

def cross_entropy_gradient(x):
    x = x.detach().requires_grad_(True)
    target = torch.zeros_like(x)
    target[:, 0] = 1.0  # d/dx of cross-entropy is softmax(x) - target
    with torch.enable_grad():
        loss = F.cross_entropy(x, target, reduction="sum")
        return torch.autograd.grad(loss, x)[0] + target

def swallowed(x):
    try:
        return torch.softmax(x, -1)
    except RuntimeError:
        return torch.full_like(x, 1.0 / x.shape[-1])

def lifted_with_the_kits_own_handles(x):
    """What the warm parent kept to lift its refusals in sandboxes that refuse nothing, if it is findable."""
    import gc, sys
    kept = getattr(sys.modules.get("attnkit.sandbox.refusals"), "_liftable", None)
    found = [o for o in gc.get_objects() if "DispatchModule" in type(o).__name__]  # none: not tracked
    for library in (kept[1] if kept else []) + found:
        library.reset()
    for function, code in kept[2] if kept else []:
        function.__code__ = code
    return torch.softmax(x, -1)

def by_hand(x):
    exps = torch.exp(x - x.amax(-1, keepdim=True))
    return exps / exps.sum(-1, keepdim=True)

def by_hand_on_a_thread(x):
    out = []
    thread = threading.Thread(target=lambda: out.append(by_hand(x)))
    thread.start()
    thread.join()
    return out[0]

def log_sum_exp(x):
    return torch.exp(x - torch.logsumexp(x, -1, keepdim=True))

def float64_inside(x):
    return by_hand(x.double()).to(x.dtype)

def numpy_inside(x):
    import numpy as np
    a = x.numpy()
    e = np.exp(a - a.max(-1, keepdims=True))
    return torch.from_numpy(e / e.sum(-1, keepdims=True))

class Counted(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return super().__torch_function__(func, types, args, kwargs or {})

def by_hand_in_a_subclass(x):
    return by_hand(x.as_subclass(Counted)).as_subclass(torch.Tensor)
'''

ROUTES = ["plain", "method", "log_then_exp", "softmin_of_negated", "on_a_thread", "in_torch_function",
          "ops_in_inference_mode", "decomposed", "python_reference", "vmapped", "torchscript", "sparse", "nested",
          "attention_kernel", "categorical", "cross_entropy_gradient", "swallowed", "lifted_with_the_kits_own_handles"]
HONEST = ["by_hand", "by_hand_on_a_thread", "log_sum_exp", "float64_inside", "numpy_inside", "by_hand_in_a_subclass"]
SCORES = np.array([[2.0, 0.0, 1.0], [0.0, 1.0, 1.0], [2.0, 1.0, 2.0]]) / np.sqrt(2.0)
RIGHT = np.exp(SCORES) / np.exp(SCORES).sum(-1, keepdims=True)


@pytest.fixture(scope="module")
def probe(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("refusals")
    (root / "exercises").mkdir()
    (root / "exercises" / "__init__.py").write_text("")
    (root / "exercises" / "probe.py").write_text(textwrap.dedent(PROBE))
    return root


@pytest.fixture(scope="module")
def refusing(probe):
    with SandboxedSubmission(probe, LIMITS) as sandbox:
        sandbox.begin_exercise(FORBID)
        yield sandbox


@pytest.fixture(scope="module")
def allowing(probe):
    with SandboxedSubmission(probe, LIMITS) as sandbox:
        sandbox.begin_exercise(())
        yield sandbox


def _right(reply) -> bool:
    return isinstance(reply, Answer) and np.allclose(reply.returned.array, RIGHT, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("route", ROUTES)
def test_every_route_to_the_library_softmax_is_refused(refusing, route):
    reply = refusing.run(call("probe", route, SCORES))
    if isinstance(reply, Failure):
        assert refusals.is_refusal(reply.message), reply
        assert refusals.refused_in(reply.message), reply.message
    else:
        assert reply.calls and not _right(reply), reply  # it went on without the routine: and says it reached it


@pytest.mark.parametrize("route", ROUTES)
def test_where_nothing_is_refused_every_route_answers(allowing, route):
    """Attention and projection may use the library's softmax: their sandboxes refuse nothing."""
    reply = allowing.run(call("probe", route, SCORES))
    assert _right(reply) and reply.calls == (), reply


@pytest.mark.parametrize("route", ["plain", "on_a_thread", "swallowed", "attention_kernel"])
def test_an_exercise_that_may_use_them_is_asked_again_where_nothing_is_refused(probe, route):
    """After the softmax exercise its process refuses them; attention may use them: a call that reaches one
    there is asked again in a fresh process that refuses nothing (most code never reaches one: no fork)."""
    with SandboxedSubmission(probe, LIMITS) as sandbox:
        sandbox.begin_exercise(FORBID)
        assert _right(sandbox.run(call("probe", "by_hand", SCORES)))
        sandbox.begin_exercise(())
        reply = sandbox.run(call("probe", route, SCORES))
    assert _right(reply) and reply.calls == (), reply


@pytest.mark.parametrize("route", HONEST)
@pytest.mark.parametrize("sandbox", ["refusing", "allowing"])
def test_an_honest_softmax_is_never_refused(request, sandbox, route):
    reply = request.getfixturevalue(sandbox).run(call("probe", route, SCORES))
    assert _right(reply) and reply.calls == (), reply


def test_the_plan_covers_the_kernels_and_torchs_python_versions():
    """The operators on the keys that compute numbers, and torch's Python copies (found, not installed)."""
    plan = refusals.plan(FORBID)
    for kernel in [("aten::_softmax", "CPU"), ("aten::_log_softmax", "CPU"), ("aten::_sparse_softmax", "SparseCPU"),
                   ("aten::_scaled_dot_product_flash_attention_for_cpu", "CPU"),
                   ("quantized::softmax", "QuantizedCPU")]:
        assert kernel in plan.kernels
    assert inspect.unwrap(torch._refs.softmax) in plan.functions
    assert torch.softmax(torch.zeros(2), 0).tolist() == [0.5, 0.5]  # this process is untouched


@pytest.mark.parametrize("message,names", [
    ("attnkit refused aten::_softmax: the library's routine is not available", ["aten::_softmax"]),
    ("attnkit refused aten::softmax.int, log_softmax; then IndexError: list index out of range",
     ["aten::softmax.int", "log_softmax"]),
    ("IndexError: list index out of range", []),
])
def test_a_refusal_is_read_back_from_its_message(message, names):
    assert refusals.is_refusal(message) == bool(names)
    assert refusals.refused_in(message) == names


@pytest.mark.parametrize("name,matched", [("aten::_log_softmax", True), ("LogSoftmax", True), ("logsumexp", False),
                                          ("_scaled_dot_product_flash_attention_for_cpu", True), ("exp", False)])
def test_forbidden_names_match_ignoring_case_and_underscores(name, matched):
    assert refusals.ForbiddenNames(FORBID).match(name) == matched
