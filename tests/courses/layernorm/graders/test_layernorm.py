"""Grader for exercise `layernorm`: LayerNorm(d_model, eps), gain * normalise(x, eps) + bias.

Each check first reads the layer's make-up: a gain or bias the checks cannot find among its
parameters by those names (renamed, kept in an nn.LayerNorm inside, or a plain tensor nn.Module does
not register) is named as such, since its numbers are then the layer's own and comparing them would
blame some other mistake. The fresh layer's check sets nothing: its gain must start at ones and its bias at zeros, so it
equals normalise alone. The other checks set `gain` and `bias` through the layer's parameters to
random numbers far from 1 and 0 (so scaling after shifting, or leaving either out, changes every
number), and build the layer with an eps near the rows' variance (so a layer that forgets its own eps
and normalises with the default 1e-5 is seen). The first token of every sentence is nearly flat (its
numbers 1e-3 apart, a variance near 1e-6), as a padding token is: there the default eps of 1e-5 and no
eps at all give far different numbers, so a layer that forgets its eps is not mistaken for one that
normalises without any (elsewhere the two agree to within the tolerance). Sizes as in the normalise
grader: more numbers a row than rows, a batch in front. The last check sends a gradient back through
the output and compares the gain's and the bias's gradients with the reference's (`expect` compares
only the output), so a graph cut by .detach() or torch.no_grad() is named though the numbers are right.
"""
import numpy as np

from attnkit.grading.api import layer


def layer_norm(rng: np.random.Generator, d_model: int, eps: float, tokens: tuple[int, ...], dtype: str = "float32",
               set_weights: bool = True, backward: bool = False):
    """LayerNorm(d_model, eps) on x of shape (*tokens, d_model), with random gain and bias if `set_weights`;
    with `backward`, a random upstream gradient is sent back through the output."""
    x = rng.normal(scale=0.5, size=(*tokens, d_model))
    x[..., 0, :] = rng.normal() + rng.normal(scale=1e-3, size=x[..., 0, :].shape)  # a nearly flat token
    weights = {"gain": rng.uniform(1.5, 3.0, size=d_model) * rng.choice([-1.0, 1.0], size=d_model),
               "bias": rng.normal(size=d_model)} if set_weights else {}
    upstream = rng.normal(size=x.shape) if backward else None
    return layer("layernorm", "LayerNorm", (d_model, eps), parts=(), weights=weights, input=x, upstream=upstream,
                 dtype=dtype)


def judge(attempt, request, batched: bool = False):
    """The student's answer if it is right; a layer without parameters named gain and bias fails for that."""
    built = getattr(attempt.run(request), "layer", None)
    if built is not None:
        missing = [name for name in ("gain", "bias") if name not in built.parameters or name in built.unset]
        if missing:
            own = ", ".join(built.parameters) or "none at all"
            attempt.fail("layernorm-missing-parameters", f"LayerNorm has no parameter {' or '.join(missing)} "
                                                         f"(its parameters: {own})")
    return attempt.expect(request, batched=batched)


def test_fresh_layer(attempt, rng):
    """LayerNorm(6) as built: parameters gain (ones) and bias (zeros), so it only normalises 4 tokens"""
    judge(attempt, layer_norm(rng, d_model=6, eps=1e-5, tokens=(4,), set_weights=False))


def test_known_gain_and_bias(attempt, rng):
    """LayerNorm(9, eps=0.5) with gain and bias set by the grader: 6 tokens"""
    judge(attempt, layer_norm(rng, d_model=9, eps=0.5, tokens=(6,)))


def test_batched_float64(attempt, rng):
    """a batch of 8 sentences of 5 tokens, LayerNorm(11, eps=0.2), float64"""
    judge(attempt, layer_norm(rng, d_model=11, eps=0.2, tokens=(8, 5), dtype="float64"), batched=True)


def test_gradients_reach_gain_and_bias(attempt, rng):
    """after backward, gain and bias get the reference's gradients: LayerNorm(13, eps=0.3), 7 tokens"""
    request = layer_norm(rng, d_model=13, eps=0.3, tokens=(7,), backward=True)
    answer = judge(attempt, request)
    if answer is None:
        return
    expected = attempt.reference(request).layer.grads
    for name in ("gain", "bias"):
        got = answer.layer.grads.get(name)
        if got is None or not np.any(got):
            attempt.report("layernorm-breaks-gradient", f"after backward, {name} got no gradient")
        elif not np.allclose(got, expected[name], rtol=1e-3, atol=1e-5):
            gap = np.max(np.abs(got - expected[name]))
            attempt.report("layernorm-breaks-gradient", f"the gradient of {name} is off by up to {gap:.3g}")
