"""Grader for exercise `projection`: the projection layer, SelfAttention.

The checks set W_q, W_k and W_v themselves, through the layer's parameters (distinct matrices,
d_model != d_k, no size one more than another), so the student's layer and the reference compute on
the same numbers. The layer's make-up is read first: projections the checks cannot set (not owned
by the module, the wrong size, one matrix under two names, not an nn.Linear) are named from it,
with a bias where one is seen. Otherwise the numbers decide (the mistake models name what they
explain); a wrong answer that becomes right with every unset 1-D parameter zeroed is a bias (and one
that a mistake model explains once they are zeroed, a bias and that mistake), one that does not
change when the weights change uses no projection, and a missing part no model explains is named
as missing. The last check follows the gradients back to the three weights.
"""
from dataclasses import replace

import numpy as np

from attnkit.grading.api import layer

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


def check_make_up(attempt, request, reply):
    """The layer's make-up, and whether every part the checks must set can be set; each one that cannot
    is named (its numbers are then the student's own, so values are not compared). Read from the
    student's reply, or from building the layer alone when running it failed (a layer whose forward
    crashes because of its make-up is still named for its cause)."""
    d_model, d_k = request.init
    built = reply.layer if getattr(reply, "layer", None) is not None else \
        attempt.require(attempt.run(replace(request, input=None, upstream=None))).layer
    blocked = False
    for name, part in built.parts.items():
        if part.same_as:
            attempt.report("projection-shared-qk", f"{name} is the same matrix as {part.same_as}")
        elif not part.present:
            continue  # judged by the numbers: no projection at all, or keys from W_q, leave parts out
        elif not part.registered:
            attempt.report("projection-not-registered", f"{name} (a {part.type_name}) is not among "
                                                        "SelfAttention.parameters()")
        elif part.weight_shape is None:
            attempt.report("projection-missing-layers",
                           f"{name} is a {part.type_name}, not an nn.Linear with a .weight")
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
    return built, blocked


def judge(attempt, request):
    """The student's answer if it is right; else every mistake found, named."""
    reply = attempt.run(request)
    built, blocked = check_make_up(attempt, request, reply)
    if blocked:
        return None
    answer = attempt.expect(request, names=NAMES, student=reply)
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
    unbiased = attempt.ask(zeroed)
    if attempt.right(zeroed, unbiased):
        attempt.explain(finding, "projection-bias",
                        "with every 1-D parameter the checks do not set made zero, "
                        "your layer gives the expected numbers: those parameters add a bias")
        return
    zeroing_matters = not same_numbers(attempt.ask(request), unbiased)  # else no 1-D parameter changes anything
    besides = attempt.explained_by(zeroed, unbiased) if zeroing_matters else []
    if len(besides) == 1:  # a bias and one more mistake, which the numbers show once the bias is zero
        attempt.explain(finding, "projection-bias", "your projections have a bias; with it made zero your layer's "
                                                    "numbers are still wrong, in a way a second mistake explains")
        for mistake in besides[0]:
            attempt.report(mistake, "what your layer computes once its bias is made zero")
        return
    # Each projection changed its own way: negating W_q and W_k together would leave Q Kᵀ as it was.
    changes = {"W_q.weight": -1.0, "W_k.weight": 2.0, "W_v.weight": -1.0}
    others = replace(request, weights={name: changes.get(name, -1.0) * w for name, w in request.weights.items()})
    first, second = attempt.ask(request), attempt.ask(others)
    if same_numbers(first, second):
        attempt.explain(finding, "projection-no-projection", "your layer's output stays the same when W_q, W_k and W_v "
                                                             "change: the projections are not used")
        return
    missing = [name for name, part in built.parts.items() if not part.present]
    crashed = finding.fallback == "crash" or finding.explanations == [("crash",)]
    if missing and not crashed:  # a crash stays a crash; wrong numbers from missing parts are named
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
        reply = attempt.ask(request)
        cut_gradients(attempt, request, reply, excused=unused_parts(attempt, request, reply))
        return
    expected = attempt.reference(request).layer.grads
    if not cut_gradients(attempt, request, answer, excused=set(), elsewhere=cut_elsewhere(attempt, request, answer)):
        for part in PARTS:
            got, want = answer.layer.grads[f"{part}.weight"], expected[f"{part}.weight"]
            if not np.allclose(got, want, rtol=1e-3, atol=1e-5):
                attempt.report("wrong-values", f"the gradient of {part} differs from the expected one by up to "
                                               f"{np.max(np.abs(got - want)):.3g}")


def unused_parts(attempt, request, reply) -> set[str]:
    """Parts the computation leaves out, whose missing gradient is no new mistake: those the mistakes found
    so far leave out, and each part without a gradient in `reply` whose weight can change without changing
    the output (a layer that takes its values from W_k never uses W_v: its wrong numbers are already named,
    nothing cut a graph)."""
    named = {m for f in attempt.record.findings for e in f.explanations for m in e}
    if "projection-no-projection" in named:
        return set(PARTS)
    unused = {"W_q", "W_k"} if "projection-shared-qk" in named else set()
    for part in without_gradient(reply):
        if part not in unused:
            key = f"{part}.weight"
            changed = replace(request, weights={**request.weights, key: -request.weights[key]})
            if same_numbers(reply, attempt.ask(changed)):
                unused.add(part)
    return unused


def without_gradient(answer) -> list[str]:
    """The parts the checks set that got no gradient after backward."""
    grads = answer.layer.grads if getattr(answer, "layer", None) is not None else {}
    return [part for part in PARTS if f"{part}.weight" in grads
            and (grads[f"{part}.weight"] is None or not np.any(grads[f"{part}.weight"]))]


def cut_elsewhere(attempt, request, answer) -> bool:
    """Whether a layer with the right numbers whose projections get no gradient gets them all once what it
    calls is stood in for: the graph is then cut in what it calls (the feedback says where to look)."""
    if not without_gradient(answer):
        return False
    stood_in = attempt.ask_with_standins(request)
    return getattr(stood_in, "layer", None) is not None and stood_in.returned is not None \
        and not without_gradient(stood_in)


def cut_gradients(attempt, request, answer, excused: set[str], elsewhere: bool = False) -> bool:
    """Name a cut graph: a part the checks set that gets no gradient. True if one was named.

    An output of another shape than the upstream gradient's cannot be sent it back, so its missing
    gradients are no evidence of a cut (its shape is named already). `elsewhere`: the layer's own code
    passes gradients on when what it calls is stood in for."""
    if getattr(answer, "layer", None) is None or answer.returned is None:
        return False
    returned = answer.returned
    first = returned.items[0] if returned.kind == "sequence" and returned.items else returned
    if first.array is not None and first.array.shape != request.upstream.shape:
        return False
    cut = [part for part in without_gradient(answer) if part not in excused]
    if cut:
        numpy = "" if first.type_name == "Tensor" else f": your output is a {first.type_name}, and numpy keeps no graph"
        where = ("; with correct stand-ins for the exercises your layer calls, every projection gets its gradient: "
                 "the graph is cut in one of those (numbers taken out of torch, through numpy, .detach() or "
                 ".item(), keep their values and lose their gradient)") if elsewhere else ""
        attempt.report("projection-breaks-gradient",
                       f"after backward, {' and '.join(cut)} got no gradient{numpy}{where}")
    return bool(cut)
