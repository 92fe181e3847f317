"""What a mistake's code looks like, read from the source in the grader (the catalogue's `evidence`)."""
from __future__ import annotations

import pytest

from attnkit.grading.source_evidence import evident
from kit import CATALOGUE

BATCH_TRANSPOSE = CATALOGUE["scores-batch-transpose"]


@pytest.mark.parametrize("code", [
    "s = q @ k.transpose(0, 1)",
    "s = q @ k.transpose( 1,0 )",
    "s = torch.matmul(q, K.T)",
    "s = q.mm(k.t())",
    "s = torch.mm(q, k)",
    "s = q @ k.permute(1, 0)",
    "s = torch.transpose(k, 0, 1)",
    "s = np.transpose(k)",
    "s = q @ k.swapaxes(1, 0)",
    "s = torch.einsum(\"id,jd->ij\", q, k)",
])
def test_a_2d_only_transpose_or_product_is_seen_however_it_is_spaced(code):
    found = evident([BATCH_TRANSPOSE], {"projection.py": f"def f(q, k):\n    {code}\n    return s\n".encode()})
    assert list(found) == ["scores-batch-transpose"] and found["scores-batch-transpose"].startswith("projection.py: ")


@pytest.mark.parametrize("code", [
    "s = q @ k.transpose(-2, -1)",
    "s = q @ k.mT",
    "s = np.matmul(q, np.swapaxes(k, -1, -2))",
    "s = torch.bmm(q, k.transpose(1, 2))",
    "s = q @ k.transpose(-1, -2)  # not k.T, which is 2-D only",
    "s = torch.Tensor.matmul(q, k.permute(0, 2, 1))",
    "s = np.transpose(k, (0, 2, 1))",
    "s = torch.einsum('...id,...jd->...ij', q, k)",
])
def test_code_that_carries_batches_through_shows_nothing(code):
    assert evident([BATCH_TRANSPOSE], {"attention.py": f"def f(q, k):\n    {code}\n    return s\n".encode()}) == {}


def test_a_module_that_does_not_parse_shows_nothing():
    assert evident([BATCH_TRANSPOSE], {"attention.py": b"def f(q, k):\n    return q @ k.T +\n"}) == {}
