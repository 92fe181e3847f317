"""The oracle: the reference's answers, the models' candidates and the stand-ins' numbers, in the trusted process."""
from __future__ import annotations

import os
import resource
import signal
import sys
import time

import numpy as np
import pytest
import torch

from attnkit.grading.attempt import call
from attnkit.grading.oracle import ReferenceOracle, answer_standin
from attnkit.interrupts import interrupt_held
from attnkit.sandbox.protocol import Answer, Standin, StandinCall
from kit import COURSE

SOFTMAX = Standin("softmax", "softmax")
ATTENTION = Standin("attention", "attention")
SCALED = Standin("scaled_scores", "scaled_scores")


@pytest.fixture(scope="module")
def oracle() -> ReferenceOracle:
    return ReferenceOracle(COURSE.solutions_dir, COURSE.mistakes_dir)


def test_the_references_answer_is_plain_numbers(oracle):
    answer = oracle.reference(call("softmax", "softmax", np.zeros((2, 4)), -1))
    assert isinstance(answer, Answer) and answer.returned.kind == "array"
    assert np.allclose(answer.returned.array, 0.25)


def test_a_second_oracle_does_not_use_the_first_ones_package():
    first = ReferenceOracle(COURSE.solutions_dir, COURSE.mistakes_dir)
    first.reference(call("softmax", "softmax", np.eye(3), -1))
    del first  # its folder is deleted; its package stays in sys.modules
    second = ReferenceOracle(COURSE.solutions_dir, COURSE.mistakes_dir)
    assert second.reference(call("softmax", "softmax", np.eye(3), -1)).returned.kind == "array"


def test_candidates_are_each_mistakes_numbers(oracle):
    request = call("softmax", "softmax", np.random.default_rng(0).normal(size=(3, 5)), -1)
    singles = {c.mistakes: c.answer for c in oracle.candidates(request, 1)}
    assert frozenset({"softmax-wrong-dim"}) in singles
    assert np.allclose(singles[frozenset({"softmax-wrong-dim"})][0].sum(axis=0), 1.0)


def test_a_stand_in_answers_with_the_references_outputs(oracle):
    Q, K, V = (np.random.default_rng(i).normal(size=(3, 4)) for i in range(3))
    answer = oracle.standin(ATTENTION, StandinCall(0, (Q, K, V), {}, None))
    reference = oracle.reference(call("attention", "attention", Q, K, V, dtype="float64"))
    assert not answer.error and not answer.single
    assert np.allclose(answer.values[1], reference.returned.items[1].array)


def test_a_stand_ins_backward_pass_is_the_references_gradient(oracle):
    x, upstream = np.random.default_rng(1).normal(size=(2, 5)), np.random.default_rng(2).normal(size=(2, 5))
    answer = oracle.standin(SOFTMAX, StandinCall(0, (x,), {"dim": -1}, (upstream,)))
    tensor = torch.tensor(x, requires_grad=True)
    torch.softmax(tensor, dim=-1).backward(torch.tensor(upstream))
    assert np.allclose(answer.values[0], tensor.grad.numpy())


def test_a_backward_pass_through_two_outputs_sums_both_gradients():
    a, b, up_sum, up_product = (np.random.default_rng(i).normal(size=3) for i in range(4))
    answer = answer_standin(lambda x, y: (x + y, x * y), StandinCall(0, (a, b), {}, (up_sum, up_product)))
    assert np.allclose(answer.values[0], up_sum + up_product * b)
    assert np.allclose(answer.values[1], up_sum + up_product * a)


def test_a_gradient_that_does_not_fit_its_output_comes_back_as_an_error(oracle):
    x = np.ones((2, 5))
    answer = oracle.standin(SOFTMAX, StandinCall(0, (x,), {"dim": -1}, (np.ones(5),)))  # would broadcast
    assert "shape" in answer.error and not answer.values


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the heap is measured in /proc")
def test_a_call_whose_answer_would_be_huge_is_refused_without_the_memory(oracle):
    """Two (4096, 1) vectors in, 16.7 million scores out: the heap the call may add is fixed before it runs."""
    Q = K = np.ones((4096, 1))
    before = resource.getrlimit(resource.RLIMIT_DATA)
    answer = oracle.standin(SCALED, StandinCall(0, (Q, K), {}, None), room=1 << 14)
    assert "more numbers than this check's inputs" in answer.error and not answer.values
    assert resource.getrlimit(resource.RLIMIT_DATA) == before  # put back
    small = oracle.standin(SCALED, StandinCall(0, (Q[:8], K[:8]), {}, None), room=1 << 14)
    assert not small.error and small.values[0].shape == (8, 8)
    assert oracle.standin(SCALED, StandinCall(0, (Q, K), {}, None)).values[0].shape == (4096, 4096)  # unbounded


def test_arguments_the_reference_refuses_come_back_as_an_error(oracle):
    answer = oracle.standin(SOFTMAX, StandinCall(0, ("not numbers",), {}, None))
    assert answer.error and not answer.values


def test_keyword_arguments_are_placed_in_the_references_order(oracle):
    x = np.ones((2, 2))
    assert oracle.positional(SOFTMAX, StandinCall(0, (x,), {"dim": 0}, None))[1] == 0
    assert oracle.positional(SOFTMAX, StandinCall(0, (x,), {"nonsense": 0}, None)) is None


def test_answer_standin_runs_any_trusted_function():
    answer = answer_standin(lambda a, b: (a + b, a * b), StandinCall(0, (np.ones(2), np.full(2, 3.0)), {}, None))
    assert [v.tolist() for v in answer.values] == [[4.0, 4.0], [3.0, 3.0]]


def test_ctrl_c_while_the_reference_computes_stops_the_grader(tmp_path):
    """The reference runs in the grader's own process: Ctrl-C there must end the run, not become a crash
    of the reference (which the grader reported at the end, after grading every student)."""
    solutions = tmp_path / "solutions"
    solutions.mkdir()
    (solutions / "softmax.py").write_text(
        "import signal\n\ndef softmax(scores, dim=-1):\n    signal.raise_signal(signal.SIGINT)\n    return scores\n")
    oracle = ReferenceOracle(solutions, COURSE.mistakes_dir)
    with pytest.raises(KeyboardInterrupt):
        oracle.reference(call("softmax", "softmax", np.eye(3), -1))


def test_ctrl_c_while_torch_is_imported_is_raised_once_the_import_is_done():
    """Raised inside the import, an interrupt can land in Python code torch's C++ is calling, and abort the
    process: it is held, whichever thread the kernel gives the signal to, and raised after."""
    went_on = []
    with pytest.raises(KeyboardInterrupt):
        with interrupt_held():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)  # Python runs signal handlers between bytecodes: it would raise here
            went_on.append(True)
    assert went_on == [True]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
