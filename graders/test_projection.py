"""Grader for exercise `projection`: the projection layer, SelfAttention.

The checks set W_q, W_k and W_v themselves, through the layer's parameters (distinct matrices,
d_model != d_k, no size one more than another), so the student's layer and the reference compute on
the same numbers. The layer's make-up is read first: projections the checks cannot set (not owned
by the module, the wrong size, one matrix under two names, not an nn.Linear) are named from it,
with a bias where one is seen. Otherwise the numbers decide (the mistake models name what they
explain); a wrong answer that becomes right with every unset 1-D parameter zeroed is a bias, one
that does not change when the weights change uses no projection, and a missing part no model
explains is named as missing. The last check follows the gradients back to the three weights.
"""
from dataclasses import replace

import numpy as np

from attnkit.grading.attempt import layer

PARTS = ("W_q", "W_k", "W_v")
NAMES = ("output", "weights")


def self_attention(rng: np.random.Generator, d_model: int, d_k: int, tokens: tuple[int, ...], dtype: str = "float32",
                   backward: bool = False):
    """SelfAttention(d_model, d_k) with distinct random projections, on x of shape (*tokens, d_model).

    The weights are scaled by 1/√d_model so the scores stay near 1 and the softmax stays soft: a
    spiky one would hide a wrong scale or axis. With `backward`, a random upstream gradient is sent
    back through the output.
    """
    x = rng.normal(size=(*tokens, d_model))
    weights = {f"{part}.weight": rng.normal(scale=d_model ** -0.5, size=(d_k, d_model)) for part in PARTS}
    upstream = rng.normal(size=(*tokens, d_k)) if backward else None
    return layer("projection", "SelfAttention", (d_model, d_k), parts=PARTS, weights=weights, input=x,
                 upstream=upstream, dtype=dtype)


def check_make_up(attempt, request):
    """The layer's make-up; every part the checks cannot set is named, and the check stops (its numbers
    are the student's own)."""
    d_model, d_k = request.init
    built = attempt.require(attempt.run(replace(request, input=None, upstream=None))).layer
    blocked = False
    for name, part in built.parts.items():
        if part.same_as:
            attempt.report("projection-shared-qk", f"{name} is the same matrix as {part.same_as}")
        elif not part.present:
            continue  # judged by the numbers: no projection at all, or keys from W_q, leave parts out
        elif part.weight_shape is None and name not in built.parameters and part.type_name in ("Tensor", "Parameter"):
            attempt.report("projection-not-registered", f"{name} (a bare {part.type_name}) is not among "
                                                        "SelfAttention.parameters()")
        elif part.weight_shape is None:
            attempt.report("projection-missing-layers", f"{name} is a {part.type_name}, not an nn.Linear with a .weight")
        elif f"{name}.weight" not in built.parameters:
            attempt.report("projection-not-registered", f"{name} (a {part.type_name}) is not among SelfAttention.parameters()")
        elif part.weight_shape != (d_k, d_model):
            out_features, in_features = (*part.weight_shape, None, None)[:2]
            attempt.report("projection-wrong-size", f"{name} maps {in_features} numbers to {out_features}; "
                                                    f"nn.Linear(d_model, d_k) maps d_model = {d_model} to d_k = {d_k}")
        else:
            continue
        blocked = True
    if blocked:
        biased = [name for name, part in built.parts.items() if part.has_bias]
        if biased:
            attempt.report("projection-bias", f"{' and '.join(biased)} {'has' if len(biased) == 1 else 'have'} a bias")
        attempt.stop()
    return built


def judge(attempt, request):
    """The student's answer if it is right; else every mistake found, named."""
    built = check_make_up(attempt, request)
    answer = attempt.expect(request, names=NAMES)
    finding = attempt.unexplained()
    if answer is None and finding is not None:
        explain_probes(attempt, request, built, finding)
    return answer


def explain_probes(attempt, request, built, finding) -> None:
    """Ask the layer the questions that tell unowned projections, a bias, no projection and a missing part apart."""
    d_model, d_k = request.init
    if not built.parameters and not any(p.present for p in built.parts.values()):
        plain = attempt.ask(replace(request, dtype="float32"))
        output = plain.returned.items[0].array if getattr(plain, "returned", None) and plain.returned.items else None
        if output is not None and d_k != d_model and output.shape[-1:] == (d_k,):
            attempt.explain(finding, "projection-not-registered", "your layer projects to d_k, but "
                                                                  "SelfAttention.parameters() is empty")
            return
    zeroed = replace(request, zero_unset=True)
    if attempt.right(zeroed, attempt.ask(zeroed)):
        attempt.explain(finding, "projection-bias", "with every 1-D parameter the checks do not set made zero, "
                                                    "your layer gives the expected numbers: those parameters add a bias")
        return
    others = replace(request, weights={name: -w for name, w in request.weights.items()})
    first, second = attempt.ask(request), attempt.ask(others)
    if same_numbers(first, second):
        attempt.explain(finding, "projection-no-projection", "your layer's output stays the same when W_q, W_k and W_v "
                                                             "change: the projections are not used")
        return
    missing = [name for name, part in built.parts.items() if not part.present]
    if missing:
        attempt.explain(finding, "projection-missing-layers", f"SelfAttention has no attribute {', '.join(missing)}, "
                                                              "so the checks could not set its weights")


def same_numbers(first, second) -> bool:
    arrays = [getattr(r.returned, "items", ()) if getattr(r, "returned", None) else () for r in (first, second)]
    if not all(arrays) or len(arrays[0]) != len(arrays[1]):
        return False
    return all(a.array is not None and b.array is not None and a.array.shape == b.array.shape
               and np.allclose(a.array, b.array) for a, b in zip(*arrays))


def test_shapes(attempt, rng):
    """SelfAttention(8, 3): three bias-free projections, output (tokens, d_k), weights (tokens, tokens)"""
    judge(attempt, self_attention(rng, d_model=8, d_k=3, tokens=(5,)))


def test_known_weights(attempt, rng):
    """with W_q, W_k, W_v set by the grader: the reference's output and weights"""
    judge(attempt, self_attention(rng, d_model=7, d_k=3, tokens=(5,)))


def test_batched(attempt, rng):
    """a batch of sentences (batch, tokens, d_model), float64"""
    judge(attempt, self_attention(rng, d_model=8, d_k=3, tokens=(2, 6), dtype="float64"))


def test_gradients_reach_projections(attempt, rng):
    """after backward, W_q, W_k and W_v all get the reference's gradients"""
    request = self_attention(rng, d_model=10, d_k=3, tokens=(6,), backward=True)
    answer = judge(attempt, request)
    if answer is None:
        return
    expected = attempt.reference(request).layer.grads
    first = answer.returned.items[0] if answer.returned.kind == "sequence" else answer.returned
    for part in PARTS:
        got = answer.layer.grads.get(f"{part}.weight")
        if got is None or not np.any(got):
            numpy = "" if first.type_name == "Tensor" else f": your output is a {first.type_name}, and numpy keeps no graph"
            attempt.report("projection-breaks-gradient", f"after backward, {part} got no gradient{numpy}")
        elif not np.allclose(got, expected[f"{part}.weight"], rtol=1e-4, atol=1e-5):
            worst = np.max(np.abs(got - expected[f"{part}.weight"]))
            attempt.report("wrong-values", f"the gradient of {part} differs from the expected one by up to {worst:.3g}")
