"""How each layernorm mistake shows in the numbers: the layer's computation with its switches.

Trusted grader code; never handed out. `LayerNorm` takes the layer's init arguments, the weights
the grader set (by parameter name: `gain`, `bias`) and the input. It calls the normalise model, so
a normalise mistake made inside the layer is named under the normalise exercise's id, and its steps
come with it.
"""
import torch

from .normalise import normalise


def LayerNorm(f, init, weights, x: torch.Tensor) -> torch.Tensor:
    d_model, eps = init
    gain = weights.get("gain", torch.ones(d_model, dtype=x.dtype))
    bias = weights.get("bias", torch.zeros(d_model, dtype=x.dtype))
    normalised = normalise(f, x, f.choose("layernorm-default-eps", eps, [1e-5]))
    if f.on("layernorm-no-gain-bias"):
        return normalised
    if f.on("layernorm-shift-then-scale"):
        return f.step("scale and shift", (normalised + bias) * gain)
    return f.step("scale and shift", gain * normalised + bias)
