"""Grader for exercise `projection`: the projection layer, SelfAttention.

The checks set W_q, W_k and W_v themselves (distinct matrices, d_model != d_k),
so the student's layer and the reference compute on the same numbers. Mistakes
of the layer's make-up (a bias, the wrong size, projections the module does not
own, one matrix shared) are named from its structure before any value is
compared; the rest are named by the catalogue's variants or by the gradients.
"""
from typing import Any

import numpy as np

from attnkit.grading.attempt import GENERIC_FINDINGS, CheckFailed, module_call

PARTS = ["W_q", "W_k", "W_v"]
UNEXPLAINED = GENERIC_FINDINGS | {"hard-coded"}  # findings that name no particular mistake


def layer(rng: np.random.Generator, d_model: int, d_k: int, tokens: tuple[int, ...], dtype: str = "float32",
          backward: bool = False) -> dict:
    """Build SelfAttention(d_model, d_k), set distinct random projections, run it on x of shape (*tokens, d_model).

    The weights are scaled by 1/√d_model so the scores stay near 1 and the
    softmax stays soft: a spiky one would hide a wrong scale or axis.
    With `backward`, a random upstream gradient is sent back through the output.
    """
    x = rng.normal(size=(*tokens, d_model))
    weights = {f"{part}.weight": rng.normal(scale=d_model ** -0.5, size=(d_k, d_model)) for part in PARTS}
    upstream = rng.normal(size=(*tokens, d_k)) if backward else None
    return module_call("projection", "SelfAttention", init={"d_model": d_model, "d_k": d_k}, input=x,
                       weights=weights, parts=PARTS, upstream=upstream, dtype=dtype, outputs=2)


# --- the layer's make-up -----------------------------------------------------
# Each rule looks at one part as the sandbox described it and returns what is
# wrong with it, or None. Rules run in this order over all three parts. A part
# that is missing is judged later, by the values (see `compare`): sharing one
# matrix for queries and keys, or using no projection at all, leaves parts out.

def shared(part: dict[str, Any], d_model: int, d_k: int) -> str | None:
    return f"is the same matrix as {part['shared_with']}" if part["shared_with"] else None


def unregistered(part: dict[str, Any], d_model: int, d_k: int) -> str | None:
    if part["type"] is None or part["registered"]:
        return None
    return f"(a {part['type']}) is not among SelfAttention.parameters()"


def not_linear(part: dict[str, Any], d_model: int, d_k: int) -> str | None:
    if part["type"] is None or part["weight_shape"] is not None:
        return None
    return f"is a {part['type']}, not an nn.Linear with a .weight"


def wrong_size(part: dict[str, Any], d_model: int, d_k: int) -> str | None:
    if part["weight_shape"] in (None, [d_k, d_model]):
        return None
    out_features, in_features = (part["weight_shape"] + [None, None])[:2]
    return (f"maps {in_features} numbers to {out_features}; nn.Linear(d_model, d_k) maps d_model = {d_model} "
            f"to d_k = {d_k}")


PART_RULES = [
    ("projection-shared-qk", shared),
    ("projection-not-registered", unregistered),
    ("projection-missing-layers", not_linear),
    ("projection-wrong-size", wrong_size),
]


def owns_nothing(structure: dict[str, Any]) -> bool:
    return all(part["type"] is None for part in structure["parts"].values()) and not structure["parameters"]


def check_structure(attempt, structure: dict[str, Any], d_model: int, d_k: int) -> None:
    """Fail with the first rule the layer breaks: a bias anywhere, then the part rules."""
    for name, shape in structure["parameters"].items():
        if len(shape) == 1:
            attempt.fail("projection-bias", f"SelfAttention has a parameter {name} of shape ({shape[0]},): a bias")
    for mistake, rule in PART_RULES:
        for name, part in structure["parts"].items():
            problem = rule(part, d_model, d_k)
            if problem:
                attempt.fail(mistake, f"{name} {problem}")


def check_owned(attempt, result: dict, d_model: int, d_k: int) -> None:
    """An output of width d_k from a module that owns no parameter: the projections live elsewhere."""
    if result["status"] == "ok" and owns_nothing(result["structure"]) and d_k != d_model \
            and result["value"][0].shape[-1:] == (d_k,):
        attempt.fail("projection-not-registered", "your layer projects to d_k, but SelfAttention.parameters() is empty")


def run_layer(attempt, request: dict) -> dict:
    """The student's answer to `request`, once the layer's make-up passed the rules.

    The make-up is read from a build-only probe first, so a layer whose forward
    crashes because of it is still named for its cause. Projections the module
    does not own are not converted by .double(), so a float64 run of such a layer
    crashes: it is then judged on a float32 run.
    """
    d_model, d_k = request["init"]["d_model"], request["init"]["d_k"]
    probe = attempt.run({**request, "input": None, "upstream": None})
    attempt.require_ok(probe)
    check_structure(attempt, probe["structure"], d_model, d_k)
    student = attempt.run(request)
    if student["status"] != "ok" and owns_nothing(probe["structure"]):
        check_owned(attempt, attempt.run({**request, "dtype": "float32"}), d_model, d_k)
    attempt.require_ok(student)
    check_owned(attempt, student, d_model, d_k)
    return student


def compare(attempt, request: dict, student: dict) -> dict:
    """Compare with the reference; missing parts that no catalogued mistake explains are named as such."""
    try:
        return attempt.expect(request, student)
    except CheckFailed as failed:
        missing = [name for name, part in student["structure"]["parts"].items() if part["type"] is None]
        if missing and failed.finding.mistake in UNEXPLAINED:
            attempt.fail("projection-missing-layers", f"SelfAttention has no attribute {', '.join(missing)}, "
                                                      "so the checks could not set its weights")
        raise


def shapes(result: dict) -> list[tuple[int, ...]]:
    return [value.shape for value in result["value"]]


# --- the checks --------------------------------------------------------------

def test_shapes(attempt, rng):
    """SelfAttention(6, 4): three bias-free projections, output (tokens, d_k), weights (tokens, tokens)"""
    request = layer(rng, d_model=6, d_k=4, tokens=(5,))
    student = run_layer(attempt, request)
    reference = attempt.evaluate(request).reference
    if shapes(student) != shapes(reference):
        compare(attempt, request, student)  # names the mistake that gives these shapes


def test_known_weights(attempt, rng):
    """with W_q, W_k, W_v set by the grader: the reference's output and weights"""
    request = layer(rng, d_model=5, d_k=3, tokens=(4,))
    compare(attempt, request, run_layer(attempt, request))


def test_batched(attempt, rng):
    """a batch of sentences (batch, tokens, d_model), float64"""
    request = layer(rng, d_model=4, d_k=3, tokens=(2, 5), dtype="float64")
    compare(attempt, request, run_layer(attempt, request))


def test_gradients_reach_projections(attempt, rng):
    """after backward, W_q, W_k and W_v all get the reference's gradients"""
    request = layer(rng, d_model=5, d_k=3, tokens=(4,), backward=True)
    student = compare(attempt, request, run_layer(attempt, request))
    expected = attempt.evaluate(request).reference["grads"]
    for part in PARTS:
        got = student["grads"].get(f"{part}.weight")
        if got is None or not np.any(got):
            attempt.fail("projection-breaks-gradient", f"after backward, {part} got no gradient"
                         + ("" if student["types"][0].startswith("tensor") else
                            f": your output is a {student['types'][0]}, and numpy keeps no graph"))
    for part in PARTS:
        got, want = student["grads"][f"{part}.weight"], expected[f"{part}.weight"]
        if not np.allclose(got, want, rtol=attempt.context.rtol, atol=attempt.context.atol):
            attempt.fail("wrong-values", f"the gradient of {part} differs from the expected one by up to "
                                         f"{np.max(np.abs(got - want)):.3g}")
