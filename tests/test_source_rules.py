"""The source rule: a forbidden library routine is found in the submitted source, however it is reached.

Each attack is written as a student who read the kit would write it; each honest softmax is a style a
student may well choose. Sources are analysed, never run: a fast test needs no sandbox.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from attnkit.grading.source_rules import CANNOT_TELL, MAX_READ_CHARS, Use, forbidden_uses
from kit import COURSE

# What the catalogue's softmax-builtin entry lists (the lead's list), and the additions this rule proposes.
CATALOGUE_NAMES = [
    "softmax", "_softmax", "log_softmax", "softmin", "Softmax", "Softmin", "LogSoftmax",
    "scaled_dot_product_attention", "multi_head_attention_forward", "MultiheadAttention",
    "gumbel_softmax", "Categorical", "logits_to_probs",
]
PROPOSED_NAMES = ["scaled_dot_product", "flash_attention", "efficient_attention", "flex_attention",
                  "Transformer", "Multinomial", "cross_entropy", "CrossEntropy", "transform_to"]
FORBIDDEN = CATALOGUE_NAMES + PROPOSED_NAMES
REFERENCE = {p.name: p.read_text(encoding="utf-8") for p in COURSE.solutions_dir.glob("*.py")}


def package(**modules: str) -> dict[str, str]:
    """The reference package with these modules (`softmax=...`, `__init__=...`) in place of its own."""
    sources = dict(REFERENCE)
    sources.update({f"{name}.py": textwrap.dedent(text).lstrip("\n") for name, text in modules.items()})
    return sources


def uses_in(sources: dict[str, str], module: str = "softmax", forbidden=FORBIDDEN) -> list[Use]:
    return forbidden_uses(sources, module, forbidden)


# Each attack: the package's changed modules, and one place that must be reported (file, line, opaque).
ATTACKS = {
    "aliased functional module": (dict(softmax="""
        import torch.nn.functional as whatever
        def softmax(scores, dim=-1):
            return whatever.softmax(scores, dim)
        """), ("softmax.py", 3, False)),
    "imported under another name": (dict(softmax="""
        from torch import softmax as s
        def softmax(scores, dim=-1):
            return s(scores, dim)
        """), ("softmax.py", 1, False)),
    "tensor method": (dict(softmax="""
        def softmax(scores, dim=-1):
            return scores.softmax(dim)
        """), ("softmax.py", 2, False)),
    "unbound tensor method": (dict(softmax="""
        import torch
        def softmax(scores, dim=-1):
            return torch.Tensor.softmax(scores, dim)
        """), ("softmax.py", 3, False)),
    "softmin of the negated scores": (dict(softmax="""
        import torch.nn.functional as F
        def softmax(scores, dim=-1):
            return F.softmin(-scores, dim=dim)
        """), ("softmax.py", 3, False)),
    "torch.special": (dict(softmax="""
        import torch
        def softmax(scores, dim=-1):
            return torch.special.softmax(scores, dim)
        """), ("softmax.py", 3, False)),
    "module layer": (dict(softmax="""
        from torch import nn
        def softmax(scores, dim=-1):
            return nn.Softmax(dim)(scores)
        """), ("softmax.py", 3, False)),
    "a forward reference evaluated": (dict(softmax="""
        import typing
        import torch
        import typing_extensions
        def softmax(scores, dim=-1):
            ref = typing.get_args(typing.Optional["torch.special.log_" + "soft" + "max"])[0]
            return typing_extensions.evaluate_forward_ref(ref, globals={"torch": torch})(scores, dim).exp()
        """), ("softmax.py", 6, True)),
    "a dataclass field's default looked up by a computed name": (dict(softmax="""
        import dataclasses
        import torch
        def softmax(scores, dim=-1):
            holder = dataclasses.make_dataclass("H", [("soft" + "max", object)], bases=(torch.Tensor,))
            return dataclasses.fields(holder)[0].default(scores, dim)
        """), ("softmax.py", 4, True)),
    "a module only the package's star import brings in": (dict(__init__="""
        __all__ = ["extras"]
        from . import *
        """, extras="""
        import torch
        from . import softmax as exercise
        exercise.softmax = lambda scores, dim=-1: torch.nn.functional.log_softmax(scores, dim).exp()
        """), ("extras.py", 3, True)),
    "exp of log_softmax": (dict(softmax="""
        import torch
        def softmax(scores, dim=-1):
            return torch.log_softmax(scores, dim).exp()
        """), ("softmax.py", 3, False)),
    "attention with identity keys": (dict(softmax="""
        import torch
        from torch.nn import functional
        def softmax(scores, dim=-1):
            rows = scores.movedim(dim, -1)
            eye = torch.eye(rows.shape[-1], dtype=rows.dtype)
            q = rows.unsqueeze(-2) * rows.shape[-1] ** 0.5
            out = functional.scaled_dot_product_attention(q, eye, eye).squeeze(-2)
            return out.movedim(-1, dim)
        """), ("softmax.py", 7, False)),
    "aten operator": (dict(softmax="""
        import torch
        def softmax(scores, dim=-1):
            return torch.ops.aten._softmax.default(scores, dim, False)
        """), ("softmax.py", 3, False)),
    "aten operator by an innocent name": (dict(softmax="""
        import torch
        def softmax(scores, dim=-1):
            table = torch.ops.aten
            return table.special_softmax(scores, dim)
        """), ("softmax.py", 3, True)),
    "getattr with a computed name": (dict(softmax="""
        import torch
        def softmax(scores, dim=-1):
            return getattr(torch, "soft" + "max")(scores, dim)
        """), ("softmax.py", 3, True)),
    "getattr with a literal name": (dict(softmax="""
        import torch
        def softmax(scores, dim=-1):
            return getattr(torch, "softmax")(scores, dim)
        """), ("softmax.py", 3, False)),
    "the module's __dict__": (dict(softmax="""
        import torch
        def softmax(scores, dim=-1):
            return torch.__dict__["".join(["soft", "max"])](scores, dim)
        """), ("softmax.py", 3, True)),
    "eval of base64": (dict(softmax="""
        import base64
        def softmax(scores, dim=-1):
            return eval(base64.b64decode("dG9yY2guc29mdG1heA==").decode())(scores, dim)
        """), ("softmax.py", 3, True)),
    "__import__ and a literal lookup": (dict(softmax="""
        def softmax(scores, dim=-1):
            return getattr(__import__("tor" + "ch"), "soft" "max")(scores, dim)
        """), ("softmax.py", 2, True)),
    "importlib": (dict(softmax="""
        import importlib
        def softmax(scores, dim=-1):
            functional = importlib.import_module("torch.nn." + "functional")
            return functional.softmin(-scores, dim)
        """), ("softmax.py", 3, True)),
    "helper in __init__.py": (dict(__init__="""
        import torch
        def _normalise(scores, dim):
            return torch.softmax(scores, dim)
        """, softmax="""
        from . import _normalise
        def softmax(scores, dim=-1):
            return _normalise(scores, dim)
        """), ("__init__.py", 3, False)),
    "helper in cake.py": (dict(cake=REFERENCE["cake.py"] + """
def _weights(scores, dim):
    return scores.softmax(dim)
""", softmax="""
        from .cake import _weights as weights
        def softmax(scores, dim=-1):
            return weights(scores, dim)
        """), ("cake.py", REFERENCE["cake.py"].count("\n") + 3, False)),
    "helper reached as an attribute of the package": (dict(__init__="""
        from . import cake
        """, cake=REFERENCE["cake.py"] + """
def _weights(scores, dim):
    return scores.log_softmax(dim).exp()
""", softmax="""
        import exercises
        def softmax(scores, dim=-1):
            return exercises.cake._weights(scores, dim)
        """), ("cake.py", REFERENCE["cake.py"].count("\n") + 3, False)),
    "star import then softmin": (dict(softmax="""
        from torch.nn.functional import *
        def softmax(scores, dim=-1):
            return softmin(-scores, dim)
        """), ("softmax.py", 3, False)),
    "star import after the student's own softmax": (dict(softmax="""
        def softmax(scores, dim=-1):
            return scores
        from torch import *
        """), ("softmax.py", 3, True)),
    "categorical distribution": (dict(softmax="""
        import torch
        def softmax(scores, dim=-1):
            rows = scores.movedim(dim, -1)
            return torch.distributions.Categorical(logits=rows).probs.movedim(-1, dim)
        """), ("softmax.py", 4, False)),
    "a distribution transform onto the simplex": (dict(softmax="""
        from torch.distributions import constraints, transform_to
        def softmax(scores, dim=-1):
            onto = transform_to(constraints.simplex)
            return onto(scores.movedim(dim, -1)).movedim(-1, dim)
        """), ("softmax.py", 1, False)),
    "logits_to_probs": (dict(softmax="""
        from torch.distributions import utils
        def softmax(scores, dim=-1):
            return utils.logits_to_probs(scores.movedim(dim, -1)).movedim(-1, dim)
        """), ("softmax.py", 3, False)),
    "torchscript from text": (dict(softmax="""
        import torch
        _unit = torch.jit.CompilationUnit("def f(x: Tensor, d: int):\\n    return x.soft" "max(d)\\n")
        def softmax(scores, dim=-1):
            return _unit.f(scores, dim)
        """), ("softmax.py", 2, True)),
    "torch.exp patched in __init__.py": (dict(__init__="""
        import torch
        torch.exp = torch.Tensor.sigmoid
        """), ("__init__.py", 2, True)),
    "a shell command run by __init__.py at import": (dict(__init__="""
        import os
        os.system("python -c 'print(1)'")
        """), ("__init__.py", 2, True)),
    "Tensor method patched through type()": (dict(softmax="""
        import torch
        def softmax(scores, dim=-1):
            type(scores).exp = torch.Tensor.sigmoid
            e = scores.exp()
            return e / e.sum(dim, keepdim=True)
        """), ("softmax.py", 3, True)),
    "Tensor method patched through __class__": (dict(softmax="""
        import torch
        def softmax(scores, dim=-1):
            scores.__class__.exp = torch.Tensor.sigmoid
            return scores.exp() / scores.exp().sum(dim, keepdim=True)
        """), ("softmax.py", 3, True)),
    "setattr on torch": (dict(softmax="""
        import torch
        setattr(torch, "exp", torch.sigmoid)
        def softmax(scores, dim=-1):
            return torch.exp(scores)
        """), ("softmax.py", 2, True)),
    "lambda stored in a dict": (dict(softmax="""
        ROUTES = {"rows": lambda s, d: s.log_softmax(d).exp()}
        def softmax(scores, dim=-1):
            return ROUTES["rows"](scores, dim)
        """), ("softmax.py", 1, False)),
    "decorator replacing the function": (dict(softmax="""
        import torch
        def vectorised(fn):
            return lambda scores, dim=-1: torch.nn.functional.softmax(scores, dim)
        @vectorised
        def softmax(scores, dim=-1):
            raise NotImplementedError
        """), ("softmax.py", 3, False)),
    "class with __call__": (dict(softmax="""
        import torch.nn.functional as F
        class _Rows:
            def __call__(self, scores, dim=-1):
                return F.softmax(scores, dim)
        softmax = _Rows()
        """), ("softmax.py", 4, False)),
    "default argument": (dict(softmax="""
        import torch
        def softmax(scores, dim=-1, _kernel=torch.softmax):
            return _kernel(scores, dim)
        """), ("softmax.py", 2, False)),
    "operator.attrgetter with a computed path": (dict(softmax="""
        import operator, torch
        def softmax(scores, dim=-1):
            return operator.attrgetter("nn.functional." + "soft" + "min")(torch)(-scores, dim)
        """), ("softmax.py", 3, True)),
    "functools.update_wrapper as a lookup": (dict(softmax="""
        import functools, torch
        FOUND = []
        class _Catch:
            def __setattr__(self, name, value):
                FOUND.append(value)
        def softmax(scores, dim=-1):
            functools.update_wrapper(_Catch(), torch, assigned=("soft" + "max",), updated=())
            return FOUND[-1](scores, dim)
        """), ("softmax.py", 7, True)),
    "picked from a catalogue of modules": (dict(softmax="""
        from torch.ao.quantization import DEFAULT_MODULE_TO_ACT_POST_PROCESS as known
        def softmax(scores, dim=-1):
            layer = next(k for k in known if k.__name__ == "Soft" + "max")
            return layer(dim)(scores)
        """), ("softmax.py", 1, True)),
    "vars() of the functional module": (dict(softmax="""
        import torch.nn.functional as F
        def softmax(scores, dim=-1):
            return vars(F)["log_" + "soft" + "max"](scores, dim).exp()
        """), ("softmax.py", 3, True)),
    "sys.modules": (dict(softmax="""
        import sys
        def softmax(scores, dim=-1):
            return sys.modules["torch"].special.__dict__["soft" + "max"](scores, dim)
        """), ("softmax.py", 3, True)),
    "sys re-exported by torch": (dict(softmax="""
        import torch
        def softmax(scores, dim=-1):
            functional = torch.sys.modules["torch.nn." + "functional"]
            return functional.softmin(-scores, dim)
        """), ("softmax.py", 3, True)),
    "torch re-exported by the functional module": (dict(softmax="""
        from torch.nn import functional
        def softmax(scores, dim=-1):
            return functional.torch.ops.aten.exp(scores)
        """), ("softmax.py", 3, True)),
    "private torch kernel": (dict(softmax="""
        import torch
        def softmax(scores, dim=-1):
            out, _ = torch._scaled_dot_product_flash_attention_for_cpu(scores, scores, scores)
            return out
        """), ("softmax.py", 3, False)),
    "private library name held in a variable": (dict(softmax="""
        import torch
        class Holder:
            _C = None
        def softmax(scores, dim=-1):
            lib = [torch][0]
            with lib._C.DisableTorchFunction():
                return scores
        """), ("softmax.py", 6, True)),
    "library passed as self to a method": (dict(softmax="""
        import torch
        class Box:
            def __init__(self):
                self._C = None
            def inner(self):
                return self._C._nn
        def softmax(scores, dim=-1):
            return Box.inner(torch)
        """), ("softmax.py", 6, True)),
    "private attribute its class never sets": (dict(softmax="""
        import torch
        class Tensorish(torch.Tensor):
            def table(self):
                return self._C
        def softmax(scores, dim=-1):
            with Tensorish.table(torch).DisableTorchFunction():
                return scores
        """), ("softmax.py", 4, True)),
    "torch function dispatch switched off": (dict(softmax="""
        import torch
        def softmax(scores, dim=-1):
            with torch._C.DisableTorchFunction():
                e = torch.exp(scores - scores.amax(dim, keepdim=True))
            return e / e.sum(dim, keepdim=True)
        """), ("softmax.py", 3, True)),
    "torch.overrides table": (dict(softmax="""
        import torch
        def softmax(scores, dim=-1):
            for fn in torch.overrides.get_ignored_functions():
                pass
            return scores
        """), ("softmax.py", 3, True)),
    "exec of a file's text": (dict(softmax="""
        def softmax(scores, dim=-1):
            exec(open("/tmp/kernel.txt").read())
            return scores
        """), ("softmax.py", 2, True)),
    "pickle": (dict(softmax="""
        import pickle
        _kernel = pickle.loads(b"ctorch\\nsoftmax\\n.")
        def softmax(scores, dim=-1):
            return _kernel(scores, dim)
        """), ("softmax.py", 2, True)),
    "ctypes": (dict(softmax="""
        import ctypes
        def softmax(scores, dim=-1):
            return ctypes.pythonapi
        """), ("softmax.py", 3, True)),
    "subprocess": (dict(softmax="""
        import subprocess
        def softmax(scores, dim=-1):
            subprocess.run(["python", "-c", "print(1)"])
            return scores
        """), ("softmax.py", 3, True)),
    "a running frame's globals": (dict(softmax="""
        def _frames():
            yield
        def softmax(scores, dim=-1):
            gen = _frames()
            table = gen.gi_frame.f_globals
            return table["kernel"](scores, dim)
        """), ("softmax.py", 5, True)),
    "subclasses walk": (dict(softmax="""
        def softmax(scores, dim=-1):
            for cls in object.__subclasses__():
                if cls.__name__ == "Soft" + "max":
                    return cls(dim)(scores)
        """), ("softmax.py", 2, True)),
    "type hints evaluated as code": (dict(softmax="""
        import typing
        def _carrier(x: "__import__('torch').softmax"): ...
        def softmax(scores, dim=-1):
            return typing.get_type_hints(_carrier)["x"](scores, dim)
        """), ("softmax.py", 4, True)),
    "class pattern reading an attribute": (dict(softmax="""
        import torch
        def softmax(scores, dim=-1):
            match torch:
                case object(softmax=kernel):
                    return kernel(scores, dim)
        """), ("softmax.py", 4, False)),
    "computed __match_args__": (dict(softmax="""
        import torch
        class Probe(torch.Tensor):
            __match_args__ = ("soft" + "max",)
        def softmax(scores, dim=-1):
            match scores.as_subclass(Probe):
                case Probe(kernel):
                    return kernel(dim)
        """), ("softmax.py", 3, True)),
    "__match_args__ naming a table of names": (dict(softmax="""
        import torch
        class Probe(torch.Tensor):
            __match_args__ = ("__dict__",)
        def softmax(scores, dim=-1):
            return scores
        """), ("softmax.py", 3, True)),
    "module smuggled through an argument": (dict(softmax="""
        import torch
        def _table(library):
            return library.ops.aten
        def softmax(scores, dim=-1):
            return _table(torch)._log_softmax(scores, dim, False).exp()
        """), ("softmax.py", 3, True)),
    "alias of a helper module's name": (dict(cake=REFERENCE["cake.py"] + """
import torch.nn.functional as G
""", softmax="""
        from .cake import G as H
        def softmax(scores, dim=-1):
            return H.softmin(-scores, dim)
        """), ("softmax.py", 3, False)),
    "a helper's star import, star-imported": (dict(numerics="""
        from torch.nn.functional import *
        """, softmax="""
        from .numerics import *
        def softmax(scores, dim=-1):
            return softmin(-scores, dim)
        """), ("softmax.py", 3, False)),
    "a name from a helper's star import": (dict(numerics="""
        from torch.nn.functional import *
        """, softmax="""
        from .numerics import softmin as flip
        def softmax(scores, dim=-1):
            return flip(-scores, dim)
        """), ("softmax.py", 1, False)),
    "an attribute of a helper holding a star import": (dict(numerics="""
        from torch.nn.functional import *
        """, softmax="""
        import exercises.numerics
        def softmax(scores, dim=-1):
            return exercises.numerics.softmin(-scores, dim)
        """), ("softmax.py", 3, False)),
    "module __getattr__ in a helper": (dict(cake=REFERENCE["cake.py"] + """
import torch
def __getattr__(name):
    return torch.__dict__[name[::-1]]
""", softmax="""
        from .cake import xamtfos
        def softmax(scores, dim=-1):
            return xamtfos(scores, dim)
        """), ("cake.py", REFERENCE["cake.py"].count("\n") + 4, True)),
    "a lambda registered with a library by a module the package imports": (dict(__init__="""
        from . import cake
        """, cake=REFERENCE["cake.py"] + """
import torch
from torch.distributions import Normal, register_kl
register_kl(Normal, Normal)(lambda p, q: torch.softmax(p.loc, -1))
""", softmax="""
        from torch.distributions import Normal, kl_divergence
        def softmax(scores, dim=-1):
            return kl_divergence(Normal(scores.movedim(dim, -1), 1.0), Normal(scores, 1.0)).movedim(-1, dim)
        """), ("cake.py", REFERENCE["cake.py"].count("\n") + 4, False)),
    "a decorated function registered by a module the package imports": (dict(__init__="""
        from . import cake
        """, cake=REFERENCE["cake.py"] + """
from torch.distributions import Normal, register_kl
@register_kl(Normal, Normal)
def _rows(p, q):
    return p.loc.softmax(-1)
""", softmax="""
        from torch.distributions import Normal, kl_divergence
        def softmax(scores, dim=-1):
            return kl_divergence(Normal(scores, 1.0), Normal(scores, 1.0))
        """), ("cake.py", REFERENCE["cake.py"].count("\n") + 5, False)),
    "an enum whose creation runs its own method": (dict(__init__="""
        from . import cake
        """, cake=REFERENCE["cake.py"] + """
import enum
import torch
class Flavour(enum.Enum):
    def _generate_next_value_(name, start, count, last):
        torch.Tensor.exp = lambda self: torch.nn.functional.softmax(self, -1)
        return count
    SWEET = enum.auto()
"""), ("cake.py", REFERENCE["cake.py"].count("\n") + 6, True)),
    "a helper module's alias imported by name": (dict(cake=REFERENCE["cake.py"] + """
import torch
KERNEL = torch.softmax
""", softmax="""
        from .cake import KERNEL
        def softmax(scores, dim=-1):
            return KERNEL(scores, dim)
        """), ("cake.py", REFERENCE["cake.py"].count("\n") + 3, False)),
    "a name a helper module imported from torch, imported from it": (dict(cake=REFERENCE["cake.py"] + """
from torch.nn.functional import softmin as flip
""", softmax="""
        from .cake import flip
        def softmax(scores, dim=-1):
            return flip(-scores, dim)
        """), ("cake.py", REFERENCE["cake.py"].count("\n") + 2, False)),
    "another exercise's module changes this one at import": (dict(__init__="""
        from . import attention
        """, attention=REFERENCE["attention.py"] + """
from . import softmax as _mine
_mine.softmax = lambda scores, dim=-1: scores
"""), ("attention.py", REFERENCE["attention.py"].count("\n") + 3, True)),
    "code hidden in a comment by a UTF-7 coding line": (dict(softmax="""
        # -*- coding: utf-7 -*-
        def softmax(scores, dim=-1):  #+AAo-    return scores.softmax(dim)
            e = (scores - scores.amax(dim, keepdim=True)).exp()
            return e / e.sum(dim, keepdim=True)
        """), ("softmax.py", 3, False)),
    "a byte-order mark": (dict(softmax="\ufeffimport torch\n"
                                       "def softmax(scores, dim=-1):\n    return torch.softmax(scores, dim)\n"),
                          ("softmax.py", 3, False)),
    "fullwidth letters": (dict(softmax="""
        def softmax(scores, dim=-1):
            return scores.ｓｏｆｔｍａｘ(dim)
        """), ("softmax.py", 2, False)),
    "transformer layer's attention weights": (dict(softmax="""
        import torch
        def softmax(scores, dim=-1):
            layer = torch.nn.TransformerEncoderLayer(4, 1)
            return layer.self_attn
        """), ("softmax.py", 3, False)),
    "gradient of cross entropy": (dict(softmax="""
        import torch
        def softmax(scores, dim=-1):
            x = scores.movedim(dim, -1).detach().requires_grad_()
            loss = torch.nn.functional.cross_entropy(x.reshape(-1, x.shape[-1]),
                                                     torch.zeros(x.numel() // x.shape[-1], dtype=torch.long),
                                                     reduction="sum")
            (grad,) = torch.autograd.grad(loss, x)
            return grad.movedim(-1, dim)
        """), ("softmax.py", 4, False)),
    "a library the kit does not know": (dict(softmax="""
        import scipy.special
        def softmax(scores, dim=-1):
            return scipy.special.expit(scores)
        """), ("softmax.py", 3, True)),
    "builtins through __builtins__": (dict(softmax="""
        def softmax(scores, dim=-1):
            look = __builtins__["get" + "attr"]
            return scores
        """), ("softmax.py", 2, True)),
    "deeply nested source": (dict(softmax="x = a" + ".b" * 5000 + "\n"), ("softmax.py", 1, True)),
}

# Beside these, every submission of tests/submissions/correct (a row loop with math.exp, numpy, log-sum-exp,
# attention and projection using the library softmax) is graded below.
HONEST = {
    "the reference": REFERENCE["softmax.py"],
    "log-sum-exp": """
        import torch
        def softmax(scores: torch.Tensor, dim: int = -1) -> torch.Tensor:
            return torch.exp(scores - torch.logsumexp(scores, dim=dim, keepdim=True))
        """,
    "numpy": """
        import numpy as np
        import torch
        def softmax(scores, axis=-1):
            a = scores.detach().numpy()
            e = np.exp(a - a.max(axis=axis, keepdims=True))
            return torch.from_numpy(e / e.sum(axis=axis, keepdims=True)).to(scores.dtype)
        """,
    "max values, where and dtype conversions": """
        import torch
        def softmax(scores, dim=-1):
            x = scores.to(torch.float64)
            biggest = torch.max(x, dim=dim, keepdim=True).values
            biggest = torch.where(torch.isinf(biggest), torch.zeros_like(biggest), biggest)
            e = (x - biggest).exp()
            return (e / e.sum(dim=dim, keepdim=True)).to(scores.dtype)
        """,
    "a class with __call__ and private state": """
        import torch
        class StableSoftmax:
            '''Softmax as an object: subtract the max, exponentiate, divide by the total.'''
            def __init__(self, default_dim=-1):
                self._dim = default_dim
            def __call__(self, scores, dim=None):
                dim = self._dim if dim is None else dim
                e = torch.exp(scores - scores.amax(dim, keepdim=True))
                return e / e.sum(dim, keepdim=True)
        softmax = StableSoftmax()
        """,
    "a recursive softmax over the leading dims": """
        import torch
        def softmax(scores, dim=-1):
            dim = dim % scores.dim()
            if dim != 0:
                return torch.stack([softmax(part, dim - 1) for part in scores.unbind(0)])
            return _normalise(scores)
        def _normalise(column):
            e = torch.exp(column - column.max(0, keepdim=True).values)
            return e / e.sum(0, keepdim=True)
        """,
    "typing, docstrings, comments, __all__ and a demo": '''
        """My softmax: the stable softmax from the lesson (no torch.softmax here!)."""
        from __future__ import annotations
        from typing import Optional, TYPE_CHECKING
        import warnings
        import sys
        import torch
        if TYPE_CHECKING:
            from torch import Tensor
        __all__ = ["softmax"]
        EPS: Optional[float] = sys.float_info.epsilon
        def softmax(scores: Tensor, dim: int = -1) -> Tensor:
            """Like F.softmax, but written by hand. Softmax = exp / sum."""
            # not nn.Softmax: the exercise says write it yourself
            if not scores.is_floating_point():
                warnings.warn("softmax: converting integer scores to float")
                scores = scores.float()
            assert scores.dim() > 0, "softmax needs at least one dimension"
            e = torch.exp(scores - scores.amax(dim=dim, keepdim=True))
            return e / e.sum(dim=dim, keepdim=True)
        if __name__ == "__main__":
            print(softmax(torch.tensor([1.0, 2.0, 3.0])), f"softmax of {3} scores")
        ''',
    "functools and a literal getattr": """
        import functools
        import operator
        import torch
        def softmax(scores, dim=-1):
            shifted = scores - scores.amax(dim, keepdim=True)
            e = getattr(torch, "exp")(shifted)
            total = functools.reduce(operator.add, e.unbind(dim)).unsqueeze(dim)
            return e / total
        """,
    "a decorator with functools.wraps": """
        import functools
        import torch
        def keeps_input(fn):
            @functools.wraps(fn)
            def guarded(scores, dim=-1):
                return fn(scores.clone(), dim)
            return guarded
        @keeps_input
        def softmax(scores, dim=-1):
            scores -= scores.amax(dim, keepdim=True)
            scores.exp_()
            return scores / scores.sum(dim, keepdim=True)
        """,
    "a custom autograd function": """
        import torch
        class _Softmax(torch.autograd.Function):
            @staticmethod
            def forward(ctx, scores, dim):
                e = torch.exp(scores - scores.amax(dim, keepdim=True))
                out = e / e.sum(dim, keepdim=True)
                ctx.save_for_backward(out)
                ctx.dim = dim
                return out
            @staticmethod
            def backward(ctx, grad):
                (out,) = ctx.saved_tensors
                return out * (grad - (grad * out).sum(ctx.dim, keepdim=True)), None
        def softmax(scores, dim=-1):
            return _Softmax.apply(scores, dim)
        """,
    "an nn.Module named Softmax of the student's own": """
        import torch
        from torch import nn
        class Softmax(nn.Module):
            def __init__(self, dim=-1):
                super().__init__()
                self.dim = dim
            def forward(self, scores):
                e = (scores - scores.amax(self.dim, keepdim=True)).exp()
                return e / torch.sum(e, dim=self.dim, keepdim=True)
        def softmax(scores, dim=-1):
            return Softmax(dim)(scores)
        """,
    "L1 normalisation of the exponentials": """
        import torch.nn.functional as F
        def softmax(scores, dim=-1):
            e = (scores - scores.amax(dim, keepdim=True)).exp()
            return F.normalize(e, p=1, dim=dim)
        """,
    "a helper module of the student's": """
        from .cake import QUERIES
        from . import numerics
        def softmax(scores, dim=-1):
            return numerics.normalise(numerics.stable_exp(scores, dim), dim)
        """,
    "match on the dtype and a thread": """
        import threading
        import torch
        def softmax(scores, dim=-1):
            match scores.dtype:
                case torch.float16:
                    scores = scores.float()
                case _:
                    pass
            result = {}
            def work():
                e = torch.exp(scores - scores.amax(dim, keepdim=True))
                result["weights"] = e / e.sum(dim, keepdim=True)
            worker = threading.Thread(target=work)
            worker.start()
            worker.join()
            return result["weights"]
        """,
}
HELPER_MODULE = """
import torch
def stable_exp(scores, dim):
    return torch.exp(scores - scores.amax(dim, keepdim=True))
def normalise(values, dim):
    return values / values.sum(dim, keepdim=True)
"""


@pytest.mark.parametrize("attack", ATTACKS, ids=list(ATTACKS))
def test_every_door_to_a_library_softmax_is_reported_where_it_is(attack):
    modules, (file, line, opaque) = ATTACKS[attack]
    found = uses_in(package(**modules))
    assert any((u.file, u.line, u.opaque) == (file, line, opaque) for u in found), found


@pytest.mark.parametrize("style", HONEST, ids=list(HONEST))
def test_an_honest_softmax_is_never_reported(style):
    assert uses_in(package(softmax=HONEST[style], numerics=HELPER_MODULE)) == []


SUBMISSIONS = Path(__file__).parent / "submissions"
EVERYTHING_IMPORTED = "".join(f"from .{m} import *\n"
                              for m in ("softmax", "scaled_scores", "attention", "projection", "cake"))


def overlay(folder: Path, everything_imported: bool) -> dict[str, str]:
    sources = dict(REFERENCE)
    sources.update({p.name: p.read_text(encoding="utf-8") for p in folder.glob("*.py")})
    if everything_imported:
        sources["__init__.py"] = sources.get("__init__.py", "") + EVERYTHING_IMPORTED
    return sources


@pytest.mark.parametrize("folder", sorted((SUBMISSIONS / "correct").iterdir()), ids=lambda p: p.name)
def test_a_correct_test_submission_is_clean_even_with_every_module_imported_at_once(folder):
    sources = overlay(folder, everything_imported=True)
    assert forbidden_uses(sources, "softmax", FORBIDDEN) == []


@pytest.mark.parametrize("folder", sorted((SUBMISSIONS / "mistakes").iterdir()), ids=lambda p: p.name)
def test_a_mistake_test_submission_is_reported_only_for_the_builtin(folder):
    for everything_imported in (False, True):
        sources = overlay(folder, everything_imported)
        found = forbidden_uses(sources, "softmax", FORBIDDEN)
        assert bool(found) == folder.name.startswith("softmax-builtin"), found


def test_the_reference_package_is_clean_for_every_exercise():
    for exercise in COURSE.ids:
        assert uses_in(dict(REFERENCE), exercise, forbidden=[]) == []


@pytest.mark.parametrize("statement", ["from torch import ops", "import torch.jit", "from numpy import load",
                                       "from sys import modules", "import torch._dynamo", "from torch import os"])
def test_importing_a_door_is_reported_at_the_import(statement):
    (use,) = uses_in(package(softmax=statement + "\n" + REFERENCE["softmax.py"]))
    assert (use.line, use.opaque) == (1, True)


def test_a_use_reads_as_a_line_of_feedback():
    found = uses_in(package(softmax=ATTACKS["aliased functional module"][0]["softmax"]))
    assert [str(u) for u in found] == ["softmax.py, line 3: calls torch.nn.functional.softmax"]
    assert not found[0].opaque


def test_an_opaque_construct_says_the_kit_cannot_tell():
    (use,) = uses_in(package(**ATTACKS["getattr with a computed name"][0]))
    assert use.opaque and use.description.endswith(CANNOT_TELL)
    assert "getattr" in use.description


def test_one_place_gives_one_use():
    found = uses_in(package(**ATTACKS["getattr with a literal name"][0]))
    assert [str(u) for u in found] == ["softmax.py, line 3: calls torch.softmax through getattr"]


def test_the_forbidden_names_are_the_callers():
    sources = package(**ATTACKS["aliased functional module"][0])
    assert uses_in(sources, forbidden=[]) == []
    assert uses_in(sources, forbidden=["SOFTMAX"]) != []


@pytest.mark.parametrize("name", ["_safe_softmax", "Softmax2d", "AdaptiveLogSoftmaxWithLoss",
                                  "RelaxedOneHotCategorical"])
def test_a_longer_name_containing_a_forbidden_one_matches(name):
    sources = package(softmax=f"import torch\ndef softmax(scores, dim=-1):\n    return torch.nn.{name}\n")
    (use,) = uses_in(sources, forbidden=["softmax", "Categorical"])
    assert not use.opaque and name in use.description


def test_another_exercise_may_use_the_library_softmax_when_only_the_package_imports_it():
    attention = REFERENCE["attention.py"].replace("weights = softmax(scores, dim=-1)",
                                                  "weights = torch.nn.functional.softmax(scores, dim=-1)")
    sources = package(__init__="from .softmax import softmax\nfrom .attention import attention\n",
                      attention=attention)
    assert uses_in(sources) == []
    assert uses_in(sources, "attention") != []  # the same source, read for attention's own sake


def test_a_module_the_package_imports_may_compute_its_constants_with_the_library_softmax():
    cake = REFERENCE["cake.py"] + "\nimport torch\nCHECK = torch.softmax(torch.tensor([1.0, 2.0]), -1).tolist()\n"
    sources = package(__init__="from . import cake\n", cake=cake)
    assert uses_in(sources) == []
    assert uses_in(package(__init__="from . import cake\n", cake=cake.replace("CHECK =", "torch.exp =")))


def test_another_exercise_module_is_read_whole_once_the_package_runs_its_code_at_import():
    attention = REFERENCE["attention.py"] + "\ndef warm_up():\n    return torch.softmax(torch.ones(2), 0)\n"
    sources = package(__init__="from .attention import warm_up\nwarm_up()\n", attention=attention)
    assert [u.file for u in uses_in(sources)] == ["attention.py"]


def test_a_module_with_a_syntax_error_is_not_read():
    assert uses_in(package(softmax="def softmax(scores, dim=-1:\n    return scores.softmax(dim)\n")) == []
    helper_broken = package(softmax="from .numerics import f\ndef softmax(s, dim=-1):\n    return f(s)\n",
                            numerics="def f(:\n    return torch.softmax\n")
    assert uses_in(helper_broken) == []


def test_a_module_the_package_lacks_is_not_read():
    sources = package(softmax="from .helpers import f\ndef softmax(s, dim=-1):\n    return f(s)\n")
    assert uses_in(sources) == []
    assert uses_in({"__init__.py": ""}, "softmax") == []


def test_code_beyond_what_the_kit_reads_is_opaque():
    padding = "# " + "x" * 100 + "\n"
    huge = REFERENCE["softmax.py"] + padding * (MAX_READ_CHARS // len(padding))
    (use,) = uses_in(package(softmax=huge))
    assert (use.file, use.line, use.opaque) == ("softmax.py", 1, True)
    helper = package(softmax="from .numerics import f\n" + REFERENCE["softmax.py"], numerics=huge)
    assert [(u.file, u.opaque) for u in uses_in(helper)] == [("numerics.py", True)]


def test_uses_come_in_reading_order_exercise_module_first():
    sources = package(__init__="import torch\ntorch.exp = abs\n",
                      softmax="import torch\ndef softmax(s, dim=-1):\n"
                              "    x = s.softmax(dim)\n    return x.softmin(dim)\n")
    assert [(u.file, u.line) for u in uses_in(sources)] == [("softmax.py", 3), ("softmax.py", 4), ("__init__.py", 2)]


def test_a_string_is_read_only_when_it_looks_like_a_name():
    sources = package(softmax="""
        import torch
        def softmax(scores, dim=-1):
            '''softmax'''
            assert scores.dim(), "softmax needs a dimension"
            kernel = "nn.functional.softmax"
            return scores
        """)
    assert [(u.line, u.description) for u in uses_in(sources)] == [(5, "names 'nn.functional.softmax' in a string")]


def test_the_student_may_use_torch_dunder_version_and_class_names():
    sources = package(softmax="""
        import torch
        def softmax(scores, dim=-1):
            print(torch.__version__, type(scores).__name__, scores.__class__.__qualname__)
            e = scores.__sub__(scores.amax(dim, keepdim=True)).exp()
            return e.__truediv__(e.sum(dim, keepdim=True))
        """)
    assert uses_in(sources) == []


def test_a_utf8_coding_line_is_fine():
    sources = package(softmax="# -*- coding: utf-8 -*-\n" + REFERENCE["softmax.py"])
    assert uses_in(sources) == []


def test_sources_may_be_the_files_bytes():
    sources = package(**ATTACKS["tensor method"][0])
    as_bytes = {name: text.encode("utf-8") for name, text in sources.items()}
    assert uses_in(as_bytes) == uses_in(sources) != []


def test_an_unused_import_of_a_module_the_kit_does_not_read_is_not_reported():
    """Published code often imports os or sys and never uses them: only a use is a door."""
    honest = package(softmax="""
        import os
        import torch
        def softmax(x, dim=-1):
            e = (x - x.amax(dim=dim, keepdim=True)).exp()
            return e / e.sum(dim=dim, keepdim=True)
        """)
    assert uses_in(honest) == []


def softmax_with_unused_helper(helper: list[str]) -> str:
    """A hand-written softmax beside a helper that is never called, whose body is `helper`."""
    body = "".join(f"    {line}\n" for line in helper)
    return (f"import torch\n\n\ndef _never_called():\n{body}\n\ndef softmax(scores, dim=-1):\n"
            "    exps = torch.exp(scores - scores.amax(dim=dim, keepdim=True))\n"
            "    return exps / exps.sum(dim=dim, keepdim=True)\n")


INTRICATE = {  # code the analysis cannot follow in bounded work (it was a RecursionError that stopped the
    # class, and minutes of the grader's time): reported opaque, at once
    "a chain of 3000 aliases": [f"step{i} = step{i + 1}" for i in range(3000)] + ["step3000 = torch"],
    "aliases forking at every level": ["a0 = torch.p", "a0 = torch.q"] + [
        f"a{i} = a{i - 1}.{attr}" for i in range(1, 16) for attr in "pq"] + ["a15" + ".x" * 10] * 300,
}


@pytest.mark.parametrize("helper", INTRICATE.values(), ids=list(INTRICATE))
def test_code_too_intricate_to_follow_is_reported_opaque_at_once(helper):
    uses = uses_in(package(softmax=softmax_with_unused_helper(helper)))
    assert [(u.file, u.opaque) for u in uses] == [("softmax.py", True)] and "too intricate" in uses[0].description
