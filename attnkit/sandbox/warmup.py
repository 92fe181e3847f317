"""Warming the sandboxes' parent: every kind of request, run once on a package of the kit's own, before forking.

A sandbox forked from a parent that never ran a request spends its first milliseconds on first-time
work: Python specialises the bytecode of the protocol, the worker and torch's Python layers as they
first run (writing to their code objects, so each sandbox copies those pages), and torch fills its
dispatch caches on its first operations. Done once in the parent, every sandbox starts past it: on
one correct submission's requests, a quarter fewer page faults in the sandbox and about 3 ms less CPU.

The package is the kit's own and says nothing of any course (no reference code ever enters the
parent, which every sandbox inherits). It is written to a scratch folder, imported from there as a
submission is, and forgotten before the first fork. No thread pool starts: the parent runs with
OpenMP, MKL and OpenBLAS held to one thread (`warm._clean_environment`), and the requests are small.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from attnkit.sandbox import protocol, worker
from attnkit.sandbox.protocol import (
    CallRequest,
    ConstantsRequest,
    ModuleRequest,
    Request,
    Standin,
    StandinAnswer,
    StandinCall,
)

PACKAGE = "attnkit_warmup"
MODULES = {
    "__init__.py": "",
    "ops.py": '''
import torch

SCALE = 2.0
LABELS = ["a", "b"]


def weights(scores, dim=-1):
    return torch.softmax(scores * SCALE, dim=dim)


def pair(a, b):
    return a @ b.transpose(-2, -1), [float(a.sum()), None]
''',
    "uses.py": '''
import torch

from .ops import weights


def mix(q, k, v):
    return weights(q @ k.transpose(-2, -1) / k.shape[-1] ** 0.5) @ v


class Layer(torch.nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_q = torch.nn.Linear(d_in, d_out, bias=False)
        self.W_k = torch.nn.Linear(d_in, d_out, bias=False)
        self.W_v = torch.nn.Linear(d_in, d_out, bias=False)

    def forward(self, x):
        return mix(self.W_q(x), self.W_k(x), self.W_v(x))
''',
}


def warm_up() -> list[protocol.Reply]:
    """Run each request below through the protocol and the worker, as a sandbox would; then forget it all.
    The replies are returned for tests: all answers but the call that raises."""
    replies = []
    with tempfile.TemporaryDirectory(prefix="attnkit-warmup-") as folder:
        package_dir = Path(folder) / PACKAGE
        package_dir.mkdir()
        for name, source in MODULES.items():
            (package_dir / name).write_text(source)
        sys.path.insert(0, folder)
        try:
            for request in requests():
                reply = worker.execute(PACKAGE, package_dir, _through_protocol(request, protocol.FROM_GRADER),
                                       _answer_standin)
                replies.append(_through_protocol(reply, protocol.FROM_SANDBOX))
        finally:
            sys.path.remove(folder)
            for path in [p for p in sys.path_importer_cache if p.startswith(folder)]:
                del sys.path_importer_cache[path]
            for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
                del sys.modules[name]
    return replies


def requests() -> list[Request]:
    """Calls in both dtypes, recorded and not, with a returned pair, with a stand-in; a layer built, run
    forward and backward, with and without a stand-in; constants; and a call that raises."""
    rng = np.random.default_rng(0)
    q, k, v = (rng.normal(size=(2, 3, 4)) for _ in range(3))
    x, upstream = rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 3, 4))
    weights = {f"{part}.weight": rng.normal(size=(4, 4)) for part in ("W_q", "W_k", "W_v")}
    parts = ("W_q", "W_k", "W_v")
    standin = (Standin("ops", "weights"),)
    return [
        CallRequest("ops", "weights", (q, -1)),
        CallRequest("ops", "weights", (q, 1), dtype="float64", record=("softmax",)),
        CallRequest("ops", "pair", (q, k)),
        CallRequest("uses", "mix", (q, k, v)),
        CallRequest("uses", "mix", (q, k, v), standins=standin),
        CallRequest("ops", "missing", (q,)),  # a failure's path too
        ModuleRequest("uses", "Layer", (4, 4), parts, weights, None),
        ModuleRequest("uses", "Layer", (4, 4), parts, weights, x, upstream, record=("softmax",)),
        ModuleRequest("uses", "Layer", (4, 4), parts, weights, x, upstream, dtype="float64", zero_unset=True,
                      standins=standin),
        ConstantsRequest("ops", ("SCALE", "LABELS", "MISSING")),
    ]


def _answer_standin(call: StandinCall) -> StandinAnswer:
    """The grader's part in a stand-in call, played here (the first argument back, or gradients of zero),
    both messages sent through the protocol as in a sandbox."""
    call = _through_protocol(call, protocol.FROM_SANDBOX)
    arrays = [a for a in call.args if isinstance(a, np.ndarray)]
    if call.grad_outputs is None:
        answer = StandinAnswer(values=(arrays[0],))
    else:
        answer = StandinAnswer(values=tuple(np.zeros_like(a) for a in arrays))
    return _through_protocol(answer, protocol.FROM_GRADER)


def _through_protocol(message: Any, accepted: tuple[type, ...]) -> Any:
    return protocol.decode(protocol.encode(message)[protocol.HEADER.size:], accepted)
