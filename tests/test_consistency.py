"""An exercise's answers judged together: an id is named only where no check contradicts it."""
from __future__ import annotations

import numpy as np

from attnkit.grading.consistency import drop_contradicted
from attnkit.grading.diagnosis import Finding, resolve
from attnkit.grading.memory import Question
from attnkit.grading.models import Candidate
from attnkit.sandbox.protocol import CallRequest

GRID = np.arange(1.0, 7.0).reshape(2, 3)


class ModelsOracle:
    """What each mistake computes on each request, as a table (the real oracle runs the models)."""

    def __init__(self, table: dict[str, dict[str, np.ndarray]]):
        self.table = table

    def candidates(self, request, size, within=None):
        answers = self.table[request.function]
        return iter([Candidate(frozenset([m]), [a]) for m, a in answers.items()
                     if size == 1 and (within is None or m in within)])


def question(name: str, values: np.ndarray, expected: np.ndarray, *findings: Finding) -> Question:
    return Question(CallRequest("m", name, ()), [values], [expected], findings, ("wrong-values", f"{name} differs"))


def test_a_mistake_another_answer_contradicts_is_not_named():
    """On the first question the numbers are the mistake's; on the second the mistake would show and the
    numbers are not its: the honest id is the generic one, with what was seen."""
    suggested = Finding([("scale-by-n",)], fallback="wrong-values", modelled=True)
    oracle = ModelsOracle({"lesson": {"scale-by-n": GRID / 3}, "hidden": {"scale-by-n": GRID / 11}})
    questions = [question("lesson", GRID / 3, GRID / 2, suggested),
                 question("hidden", GRID / 8, GRID / 7, Finding.named("wrong-values", detail="differs"))]
    drop_contradicted(questions, oracle, 1e-4, 1e-5)
    resolve([f for q in questions for f in q.findings])
    assert suggested.mistakes == ("wrong-values",) and suggested.detail == "lesson differs"


def test_an_answer_the_mistake_leaves_unchanged_contradicts_nothing():
    """The mistake is invisible on the second question: what is wrong there is something else."""
    suggested = Finding([("scale-by-n",)], fallback="wrong-values", modelled=True)
    oracle = ModelsOracle({"lesson": {"scale-by-n": GRID / 3}, "hidden": {"scale-by-n": GRID / 7}})
    questions = [question("lesson", GRID / 3, GRID / 2, suggested),
                 question("hidden", GRID / 8, GRID / 7, Finding.named("wrong-values"))]
    drop_contradicted(questions, oracle, 1e-4, 1e-5)
    resolve([f for q in questions for f in q.findings])
    assert suggested.mistakes == ("scale-by-n",)


def test_only_unexplained_answers_contradict():
    """An answer another mistake explains is no evidence against the first: mistakes may show on some inputs only."""
    suggested = Finding([("scale-by-n",)], fallback="wrong-values", modelled=True)
    other = Finding([("transposed",)], fallback="wrong-values", modelled=True)
    oracle = ModelsOracle({"lesson": {"scale-by-n": GRID / 3},
                           "hidden": {"scale-by-n": GRID / 11, "transposed": GRID / 8}})
    questions = [question("lesson", GRID / 3, GRID / 2, suggested), question("hidden", GRID / 8, GRID / 7, other)]
    drop_contradicted(questions, oracle, 1e-4, 1e-5)
    resolve([f for q in questions for f in q.findings])
    assert (suggested.mistakes, other.mistakes) == (("scale-by-n",), ("transposed",))
