"""The mistake models: the machinery that tries each mistake's spellings, and the course's models themselves.

Each course model must compute the reference's answer when no mistake is on, and the sizes the
graders use must keep every single mistake's numbers apart from the reference's and from each
other's; hypothesis draws the sizes, by the graders' rule: pairwise different, none one more than
another, √d_k no whole number.
"""
from __future__ import annotations

import importlib
import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings, strategies as st

from attnkit.grading.models import Flaws, ModelLibrary, enumerate_answers, raising, runs
from kit import CATALOGUE, COURSE

LIBRARY = ModelLibrary(COURSE.mistakes_dir)
SIGNATURES = {m.id for m in CATALOGUE.mistakes.values() if m.signature}  # recognised by probes, not numbers


def toy(flaws, x):
    scale = flaws.choose("scale", 1.0, [2.0, 3.0])
    return x * scale + (flaws.variant("shift", [0.0, 10.0]) if flaws.on("shifted") else 0.0)


def test_a_mistake_that_is_off_gives_the_correct_value():
    assert toy(Flaws(frozenset()), 1.0) == 1.0


def test_each_spelling_of_a_mistake_that_is_on_is_tried():
    assert sorted(runs(toy, frozenset({"scale"}), [1.0])) == [2.0, 3.0]


def test_a_harmless_step_is_tried_each_way_only_around_a_mistake():
    assert sorted(runs(toy, frozenset({"shifted"}), [1.0])) == [1.0, 11.0]


def test_pairs_combine_every_spelling_of_both():
    answers = sorted(c.answer for c in enumerate_answers(toy, [1.0], 2))
    assert answers == [2.0, 3.0, 12.0, 13.0]


def test_a_mistake_whose_spelling_cannot_run_is_found():
    def model(flaws, x):
        return x[flaws.choose("index", 0, [5])]

    assert raising(model, [[1.0]]) == ["index"]


def reference(module: str, name: str):
    return getattr(importlib.import_module(f"solutions.{module}"), name)


def distinct_sizes(count: int):
    """`count` sizes from 2 to 12, pairwise at least 2 apart."""
    return st.lists(st.integers(2, 12), min_size=count, max_size=count, unique=True).filter(
        lambda sizes: all(abs(a - b) > 1 for i, a in enumerate(sizes) for b in sizes[i + 1:]))


def well_chosen(d_k: int, others: list[int], ndim: int) -> bool:
    """The graders' rule beyond `distinct_sizes`: √d_k is no whole number, no size is another's square,
    and the number of dimensions is no size."""
    sizes = [d_k, *others]
    return (math.isqrt(d_k) ** 2 != d_k and ndim not in sizes
            and not any(a == b * b for a in sizes for b in sizes))


def single_answers(model, args) -> dict[str, list[list[np.ndarray]]]:
    answers: dict[str, list[list[np.ndarray]]] = {}
    for candidate in enumerate_answers(model, args, 1):
        [mistake] = candidate.mistakes
        items = candidate.answer if isinstance(candidate.answer, tuple) else (candidate.answer,)
        answers.setdefault(mistake, []).append([t.detach().numpy() for t in items])
    return {m: a for m, a in answers.items() if m not in SIGNATURES}


def equal(a: list[np.ndarray], b: list[np.ndarray]) -> bool:
    return all(x.shape == y.shape and np.allclose(x, y, rtol=1e-4, atol=1e-5) for x, y in zip(a, b))


def assert_apart(answers: dict[str, list[list[np.ndarray]]], correct: list[np.ndarray]) -> None:
    for mistake, spellings in answers.items():
        assert not any(equal(s, correct) for s in spellings), f"{mistake} gives the right answer"
        for other, other_spellings in answers.items():
            if other != mistake:
                assert not any(equal(s, o) for s in spellings for o in other_spellings), f"{mistake} = {other}"


@settings(max_examples=15, deadline=None)
@given(sizes=distinct_sizes(3), seed=st.integers(0, 2**16))
def test_the_softmax_model_is_the_reference_and_keeps_its_mistakes_apart(sizes, seed):
    n, m, b = sizes
    scores = torch.tensor(np.random.default_rng(seed).normal(scale=2.0, size=(b, n, m)))
    model = LIBRARY.model("softmax", "softmax")
    for dim in (-1, 1):
        correct = reference("softmax", "softmax")(scores, dim)
        assert torch.allclose(model(Flaws(frozenset()), scores, dim), correct)
        assert_apart(single_answers(model, [scores, dim]), [correct.numpy()])


@settings(max_examples=15, deadline=None)
@given(sizes=distinct_sizes(4), seed=st.integers(0, 2**16))
def test_the_scaled_scores_model_is_the_reference_and_keeps_its_mistakes_apart(sizes, seed):
    n_q, n_k, d_k, batch = sizes
    if not well_chosen(d_k, [n_q, n_k, batch], 3):
        return
    rng = np.random.default_rng(seed)
    Q, K = torch.tensor(rng.normal(size=(batch, n_q, d_k))), torch.tensor(rng.normal(size=(batch, n_k, d_k)))
    model = LIBRARY.model("scaled_scores", "scaled_scores")
    correct = reference("scaled_scores", "scaled_scores")(Q, K)
    assert torch.allclose(model(Flaws(frozenset()), Q, K), correct)
    assert_apart(single_answers(model, [Q, K]), [correct.numpy()])


@settings(max_examples=10, deadline=None)
@given(sizes=distinct_sizes(4), square=st.booleans(), seed=st.integers(0, 2**16))
def test_the_attention_model_is_the_reference_and_keeps_its_mistakes_apart(sizes, square, seed):
    n_q, n_k, d_k, d_v = sizes
    n_q = n_k if square else n_q
    if not well_chosen(d_k, [n_q, n_k, d_v], 3):
        return
    rng = np.random.default_rng(seed)
    Q, K, V = (torch.tensor(rng.normal(size=(2, n, d))) for n, d in ((n_q, d_k), (n_k, d_k), (n_k, d_v)))
    model = LIBRARY.model("attention", "attention")
    correct = reference("attention", "attention")(Q, K, V)
    assert all(torch.allclose(a, b) for a, b in zip(model(Flaws(frozenset()), Q, K, V), correct))
    assert_apart(single_answers(model, [Q, K, V]), [c.numpy() for c in correct])


@settings(max_examples=8, deadline=None)
@given(sizes=distinct_sizes(3), seed=st.integers(0, 2**16))
def test_the_projection_model_is_the_reference_and_keeps_its_mistakes_apart(sizes, seed):
    d_model, d_k, tokens = sizes
    if not well_chosen(d_k, [d_model, tokens], 2):
        return
    rng = np.random.default_rng(seed)
    layer = reference("projection", "SelfAttention")(d_model, d_k).double()
    weights = {f"{p}.weight": torch.tensor(rng.normal(scale=d_model ** -0.5, size=(d_k, d_model)))
               for p in ("W_q", "W_k", "W_v")}
    layer.load_state_dict(weights)
    x = torch.tensor(rng.normal(size=(tokens, d_model)))
    model = LIBRARY.model("projection", "SelfAttention")
    with torch.no_grad():
        correct = layer(x)
    assert all(torch.allclose(a, b) for a, b in zip(model(Flaws(frozenset()), (d_model, d_k), weights, x), correct))
    assert_apart(single_answers(model, [(d_model, d_k), weights, x]), [c.numpy() for c in correct])


@pytest.mark.parametrize("exercise", [e for e in COURSE.exercises if e.functions or e.id == "projection"])
def test_every_exercise_that_computes_has_a_model(exercise):
    names = exercise.functions or ("SelfAttention",)
    assert all(LIBRARY.model(exercise.module, name) is not None for name in names)
