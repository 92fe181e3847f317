"""Grader for exercise `layernorm`: LayerNorm(d_model, eps), gain * normalise(x, eps) + bias.

The fresh layer's check sets nothing: its gain must start at ones and its bias at zeros, so it
equals normalise alone. The other checks set `gain` and `bias` through the layer's parameters to
random numbers far from 1 and 0 (so scaling after shifting, or leaving either out, changes every
number), and build the layer with an eps near the rows' variance (so a layer that forgets its own eps
and normalises with the default 1e-5 is seen). Sizes as in the normalise grader: more numbers a row
than rows, a batch in front.
"""
import numpy as np

from attnkit.grading.api import layer


def layer_norm(rng: np.random.Generator, d_model: int, eps: float, tokens: tuple[int, ...], dtype: str = "float32",
               set_weights: bool = True):
    """LayerNorm(d_model, eps) on x of shape (*tokens, d_model), with random gain and bias if `set_weights`."""
    x = rng.normal(scale=0.5, size=(*tokens, d_model))
    weights = {"gain": rng.uniform(1.5, 3.0, size=d_model) * rng.choice([-1.0, 1.0], size=d_model),
               "bias": rng.normal(size=d_model)} if set_weights else {}
    return layer("layernorm", "LayerNorm", (d_model, eps), parts=(), weights=weights, input=x, dtype=dtype)


def test_fresh_layer(attempt, rng):
    """LayerNorm(6) as built: gain ones and bias zeros, so it only normalises 4 tokens"""
    attempt.expect(layer_norm(rng, d_model=6, eps=1e-5, tokens=(4,), set_weights=False))


def test_known_gain_and_bias(attempt, rng):
    """LayerNorm(9, eps=0.5) with gain and bias set by the grader: 6 tokens"""
    attempt.expect(layer_norm(rng, d_model=9, eps=0.5, tokens=(6,)))


def test_batched_float64(attempt, rng):
    """a batch of 8 sentences of 5 tokens, LayerNorm(11, eps=0.2), float64"""
    attempt.expect(layer_norm(rng, d_model=11, eps=0.2, tokens=(8, 5), dtype="float64"), batched=True)
