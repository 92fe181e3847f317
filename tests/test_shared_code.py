"""The reduced code shared_code compares: what it sets aside, and what still tells two programs apart."""
from __future__ import annotations

import textwrap

import pytest

from attnkit.shared_code import CodeDigests, reduced_digest, shared_code
from kit import COURSE

LAYER = """
import torch
from torch import nn


class Layer(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_k = nn.Linear(d_model, d_k, bias=False)

    def forward(self, x):
        q = self.W_q(x)
        k = self.W_k(x)
        scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
        return torch.softmax(scores, dim=-1)
"""


def digest(code: str) -> str:
    return reduced_digest(textwrap.dedent(code).encode())


@pytest.mark.parametrize("disguise", [
    lambda c: c.replace("q", "query_vec").replace("self.W_query_vec", "self.W_q"),  # local names
    lambda c: c.replace("d_model", "width").replace("d_k", "depth"),                 # parameter names
    lambda c: c.replace("    def forward", "    # the forward pass\n\n    def forward"),  # comments, blank lines
    lambda c: c.replace("    def forward(self, x):\n", '    def forward(self, x):\n        """Scores."""\n'),
    lambda c: c.replace("import torch\n", "import torch as T\n").replace("torch.softmax", "T.softmax"),
    lambda c: c.replace("q @ k.transpose(-2, -1)", "(q) @ (k.transpose( -2, -1 ))"),  # layout
])
def test_what_is_set_aside(disguise):
    assert digest(disguise(LAYER)) == digest(LAYER) != ""


@pytest.mark.parametrize("change", [
    lambda c: c.replace("** 0.5", "** 0.25"),
    lambda c: c.replace("dim=-1", "dim=0"),
    lambda c: c.replace("self.W_k(x)", "self.W_q(x)"),
    lambda c: c.replace("torch.softmax", "torch.sigmoid"),
])
def test_what_still_tells_code_apart(change):
    assert digest(change(LAYER)) != digest(LAYER)


def test_short_code_constants_and_code_that_does_not_parse_are_not_compared():
    short = "import torch\n\n\ndef softmax(x):\n    return torch.exp(x) / torch.exp(x).sum(-1, keepdim=True)\n"
    assert digest(short) == ""
    assert digest("KEYS = [[2.0, 0.0], [0.0, -3.0], [1.0, 1.0]]\n" * 5) == ""
    assert digest("def broken(:\n") == ""


def test_the_stub_and_the_reference_do_not_count(tmp_path):
    package = tmp_path / "exercises"
    package.mkdir()
    (package / "projection.py").write_bytes((COURSE.solutions_dir / "projection.py").read_bytes())
    (package / "attention.py").write_bytes((COURSE.exercises_dir / "attention.py").read_bytes())
    digests = CodeDigests(COURSE).of(package)
    assert digests["projection"] == "" and digests["attention"] == ""


def test_groups_are_per_exercise_and_of_two_or_more():
    groups = shared_code(["a", "b"], {"x": {"a": "1", "b": "2"}, "y": {"a": "1", "b": "3"}, "z": {"a": "", "b": "3"}})
    assert [(g.exercise, g.students) for g in groups] == [("a", ["x", "y"]), ("b", ["y", "z"])]
