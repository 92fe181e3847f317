"""The diagnosis core, as pure functions of plain data: reading, comparing, explaining, settling, observing."""
from __future__ import annotations

import numpy as np
import pytest

from attnkit.grading.diagnosis import Finding, changed_inputs, explanations, layout, observe, resolve, same
from attnkit.grading.models import Candidate
from attnkit.sandbox.protocol import Returned

GRID = np.arange(6.0).reshape(2, 3)


def array(values: np.ndarray, type_name: str = "Tensor") -> Returned:
    return Returned("array", type_name, values, "float32")


def pair(a: np.ndarray, b: np.ndarray) -> Returned:
    return Returned("sequence", "tuple", items=(array(a), array(b)))


def test_equal_within_tolerance_and_nan_where_the_other_has_nan():
    assert same([GRID + 1e-7], [GRID], 1e-4, 1e-5)
    assert same([np.array([np.nan, 1.0])], [np.array([np.inf, 1.0])], 1e-4, 1e-5)
    assert not same([np.array([np.nan, 1.0])], [np.array([0.0, 1.0])], 1e-4, 1e-5)
    assert not same([GRID], [GRID.T], 1e-4, 1e-5)


@pytest.mark.parametrize("scale", [0.0, 1.0, 1e3])
def test_the_tolerance_is_numpys_allclose_to_the_edge(scale):
    """Within atol + rtol·|expected| is the same answer; a little beyond it is not (as np.allclose has it)."""
    expected = np.full((2, 3), scale)
    edge = 1e-5 + 1e-4 * scale
    assert same([expected + 0.99 * edge], [expected], 1e-4, 1e-5)
    assert not same([expected + 1.01 * edge], [expected], 1e-4, 1e-5)
    assert not same([expected + 1.01 * edge, expected], [expected, expected], 1e-4, 1e-5)


@pytest.mark.parametrize("student,expected", [
    (array(GRID), "where output, weights"),
    (Returned("sequence", "tuple", items=(array(GRID),) * 3), "a tuple of 3"),
    (Returned("none", "NoneType"), "returned None"),
    (Returned("other", "dict"), "a dict"),
])
def test_the_wrong_kind_of_answer_is_told_exactly(student, expected):
    said = layout(student, pair(GRID, GRID), ["output", "weights"])
    assert isinstance(said, str) and expected.replace("where output, weights", "where (output, weights)") in said


def test_a_list_or_numpy_pair_is_read_like_a_tuple_of_tensors():
    student = Returned("sequence", "list", items=(array(GRID, "ndarray"), array(GRID)))
    assert [v.shape for v in layout(student, pair(GRID, GRID), ["output", "weights"])] == [(2, 3), (2, 3)]


def test_every_configuration_that_gives_the_students_numbers_explains_it():
    candidates = [Candidate(frozenset({"a"}), [GRID * 2]), Candidate(frozenset({"b", "c"}), [GRID * 2]),
                  Candidate(frozenset({"d"}), [GRID * 3])]
    assert explanations([GRID * 2], candidates, 1e-4, 1e-5) == [("a",), ("b", "c")]


def test_an_ambiguous_finding_takes_the_explanation_another_check_proved():
    ambiguous = Finding([("x",), ("y",)])
    certain = Finding([("y",)])
    resolve([ambiguous, certain])
    assert ambiguous.mistakes == ("y",) == certain.mistakes


def test_an_ambiguous_finding_nothing_supports_names_its_generic_fallback():
    ambiguous = Finding([("x",), ("y",)], fallback="wrong-values")
    resolve([ambiguous])
    assert ambiguous.mistakes == ("wrong-values",)


def test_a_crash_names_a_mistake_only_when_numbers_proved_it_elsewhere():
    crash = Finding([("x",), ("z",)], fallback="crash", proven_only=True)
    alone = Finding([("x",)], fallback="crash", proven_only=True)
    resolve([crash, Finding([("x",)])])
    resolve([alone])
    assert crash.mistakes == ("x",) and alone.mistakes == ("crash",)


@pytest.mark.parametrize("student,words", [
    (GRID.T, "shape (3, 2), expected (2, 3) (the expected shape, transposed)"),
    (GRID * 1.7, "times 1.7"),
    (np.array([[np.nan, 1, 2], [3, 4, 5]]), "holds nan or inf"),
])
def test_what_no_mistake_explains_is_described(student, words):
    mistake, detail = observe([student], [GRID], ["the result"], 1e-4, 1e-5)
    assert words in detail and mistake in ("wrong-shape", "wrong-values", "not-finite")


def test_weights_that_sum_along_the_wrong_axis_say_which():
    weights = np.random.default_rng(0).random((3, 4))
    rows, columns = weights / weights.sum(-1, keepdims=True), weights / weights.sum(0, keepdims=True)
    _, detail = observe([columns], [rows], ["weights"], 1e-4, 1e-5)
    assert "sums to 1 along dim -2, not along dim -1" in detail


def test_an_input_changed_in_place_is_seen_at_the_dtype_it_was_sent():
    sent = [np.array([0.1, 0.2]), 3]
    assert changed_inputs(sent, [np.array([0.1, 0.2], dtype=np.float32).astype(np.float64), None], "float32") == []
    assert changed_inputs(sent, [np.array([0.0, 0.2]), None], "float32") == [1]


def test_a_whole_code_mistake_left_unexplained_elsewhere_gives_way_but_a_status_stays():
    hard = Finding([("hard-coded",)], fallback="wrong-values")
    exited = Finding.named("exited", detail="ran out of memory")
    unexplained = Finding.named("wrong-values")
    resolve([hard, exited, unexplained], whole={"hard-coded"})
    assert hard.mistakes == ("wrong-values",) and exited.mistakes == ("exited",)
