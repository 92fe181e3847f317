"""Exercise `causal`: self-attention read left to right, with no peeking at later tokens.

Lesson: "The whole formula" and the four steps of "Following cake through
attention", with one change: a token may attend to itself and to the tokens
before it, never to a later one (a model that writes text one token at a time
cannot see the words it has not written yet). Check it with `attnkit check causal`.
"""
import torch

from .scores import scaled_scores


def causal_attention(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Blend the values, each token looking only at itself and earlier tokens.

    Q: (..., n, d_k), K: (..., n, d_k), V: (..., n, d_v): one row a token, in
    reading order; the leading dimensions (...) are batch dimensions.
    Returns (output, weights):
      output  (..., n, d_v): each token's blend of the values it may see;
      weights (..., n, n): row i is token i's attention; it is zero after
              column i, and each row adds to 1.
    """
    # TODO(causal): Steps 1 and 2, score and scale: you wrote these in scores.
    # TODO(causal): hide the later tokens before Step 3: set the score of every
    # key after the query's own position to -inf, so that e^score is 0 there
    # (torch.triu or torch.tril and Tensor.masked_fill help).
    # TODO(causal): Step 3, Softmax along each row (torch.softmax may be used),
    # and Step 4, Blend. Return the output and the weights, in that order.
    raise NotImplementedError("causal: score, hide the later tokens, softmax along each row, blend (see the TODO)")
