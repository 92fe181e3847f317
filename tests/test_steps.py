"""The steps of diagnosis (attnkit/grading/steps/), the memory they share and the probe they ask, one by one.

Each step is called on a hand-built `Case` (what a check asked, what the student and the reference answered),
so what it recognises, and what it leaves to the steps after it, is tested without a sandbox. Where a step
asks the mistake models, the real oracle answers.
"""
from __future__ import annotations

import sys

import numpy as np
import pytest

from attnkit.grading import steps
from attnkit.grading.api import call, layer
from attnkit.grading.context import ExerciseContext
from attnkit.grading.diagnosis import Finding
from attnkit.grading.engine_ids import HARD_CODED, MUTATES_INPUT, WRONG_SHAPE, WRONG_TYPE, WRONG_VALUES
from attnkit.grading.memory import CheckRecord, StudentMemory
from attnkit.grading.oracle import ReferenceOracle
from attnkit.grading.probe import Probe, numbers_in, numbers_key, sliced
from attnkit.grading.steps import STEPS, Case
from attnkit.grading.steps.hard_coded import hard_coded
from attnkit.grading.steps.mistake_models import mistake_models
from attnkit.grading.steps.mutated_input import mutated_input
from attnkit.grading.steps.over_a_wrong_dependency import over_a_wrong_dependency
from attnkit.grading.steps.right_answer import right_answer
from attnkit.grading.steps.transposed import transposed
from attnkit.grading.steps.wrong_type import wrong_type
from attnkit.sandbox.protocol import Answer, Returned, Standin
from kit import CATALOGUE, COURSE

ORACLE = ReferenceOracle(COURSE.solutions_dir, COURSE.mistakes_dir, CATALOGUE.mistakes)
RNG = np.random.default_rng(7)
X = RNG.normal(size=(3, 5))


def answer(*arrays: np.ndarray, after: tuple = ()) -> Answer:
    if len(arrays) == 1:
        return Answer(Returned("array", "Tensor", arrays[0]), inputs_after=after)
    return Answer(Returned("sequence", "tuple", items=tuple(Returned("array", "Tensor", a) for a in arrays)),
                  inputs_after=after)


def case(student: Answer, *reference: np.ndarray, request=None, exercise: str = "softmax",
         memory: StudentMemory | None = None) -> Case:
    context = ExerciseContext(COURSE.exercise(exercise), COURSE, CATALOGUE, (), {}, True, ())
    request = request or call("softmax", "softmax", X, -1)
    names = ["the result"] if len(reference) == 1 else [f"result {i}" for i in range(1, len(reference) + 1)]
    return Case(Probe(None, ORACLE, context), memory or StudentMemory(), CheckRecord(), request, student,
                answer(*reference), names)


def laid_out(made: Case) -> Case:
    assert not wrong_type(made)
    return made


def ids(made: Case) -> list[str]:
    return [m for f in made.record.findings for m in f.mistakes]


def softmax(x: np.ndarray, dim: int = -1) -> np.ndarray:
    e = np.exp(x - x.max(axis=dim, keepdims=True))
    return e / e.sum(axis=dim, keepdims=True)


# --- the declared list --------------------------------------------------------------------------


def test_the_steps_are_one_declared_list_each_a_module_of_the_steps_package():
    assert len(set(STEPS)) == len(STEPS)
    for step in STEPS:  # one module per step, named for it, whose docstring says what it recognises
        module = sys.modules[step.__module__]
        assert module.__name__.startswith("attnkit.grading.steps.") and module.__doc__, step.__name__
    assert STEPS[0].__name__ == "forbidden_names" and STEPS[-1].__name__ == "generic"  # the last always settles


def test_a_right_answer_is_earned_and_nothing_is_recorded():
    made = case(answer(softmax(X)), softmax(X))
    steps.diagnose(made)
    assert made.answer is made.student and not made.record.findings


# --- one step at a time -------------------------------------------------------------------------


def test_a_changed_input_is_noted_and_the_numbers_are_judged_on():
    made = laid_out(case(answer(softmax(X), after=(X + 1,)), softmax(X)))
    assert not right_answer(made)
    assert not mutated_input(made)  # never settles
    assert ids(made) == [MUTATES_INPUT]


def test_the_wrong_kind_of_answer_settles_as_wrong_type():
    made = case(answer(softmax(X), softmax(X)), softmax(X))
    assert wrong_type(made) and ids(made) == [WRONG_TYPE]


def test_one_mistakes_model_names_it_and_the_exercise_remembers_it():
    memory = StudentMemory()
    made = laid_out(case(answer(softmax(X, dim=0)), softmax(X), memory=memory))
    assert mistake_models(made)
    assert ("softmax-wrong-dim",) in made.record.findings[0].explanations
    assert ("softmax-wrong-dim",) in memory.exercise.established
    memory.start_exercise()
    assert memory.exercise.established == []  # the next exercise starts afresh


def test_numbers_no_model_gives_leave_the_models_step_unsettled():
    made = laid_out(case(answer(softmax(X) + 0.25), softmax(X)))
    assert not mistake_models(made) and not made.record.findings


def test_the_right_answer_to_other_inputs_is_hard_coded():
    memory = StudentMemory()
    lesson = call("softmax", "softmax", RNG.normal(size=(3, 5)), -1)
    memory.remember(numbers_key(lesson), [softmax(lesson.args[0])])
    made = laid_out(case(answer(softmax(lesson.args[0])), softmax(X), memory=memory))
    assert hard_coded(made) and ids(made) == [HARD_CODED]
    same_numbers = laid_out(case(answer(softmax(X) + 1), softmax(X), memory=memory))
    memory.remember(numbers_key(same_numbers.request), [softmax(X) + 1])
    assert not hard_coded(same_numbers)  # the same numbers asked another way do not count


# --- the demo step: right numbers, transposed ----------------------------------------------------

SPELLINGS = {  # three ways a student ends up with the transpose
    ".T": lambda a: a.T,
    "swapaxes": lambda a: np.swapaxes(a, -1, -2),
    "einsum": lambda a: np.einsum("...ij->...ji", a),
}


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_right_numbers_transposed_are_named_as_such_under_wrong_shape(spelling):
    made = laid_out(case(answer(SPELLINGS[spelling](softmax(X))), softmax(X)))
    assert transposed(made)
    assert ids(made) == [WRONG_SHAPE] and "last two axes swapped" in made.record.findings[0].detail


def test_a_square_answer_transposed_is_wrong_values_saying_so():
    square = RNG.normal(size=(4, 4))
    made = laid_out(case(answer(softmax(square).T), softmax(square)))
    assert transposed(made) and ids(made) == [WRONG_VALUES]


def test_transposed_names_only_the_swapped_output_of_several():
    out, weights = RNG.normal(size=(3, 2)), softmax(X)
    made = laid_out(case(answer(out, weights.T), out, weights))
    assert transposed(made) and "`result 2`" in made.record.findings[0].detail \
        and "`result 1`" not in made.record.findings[0].detail


@pytest.mark.parametrize("wrong", [lambda a: a.T + 0.1, lambda a: a, lambda a: a[::-1]])
def test_other_wrong_numbers_are_left_to_the_generic_step(wrong):
    made = laid_out(case(answer(wrong(softmax(X) + 0.5)), softmax(X)))
    assert not transposed(made) and not made.record.findings


def test_the_whole_list_says_transposed_where_no_model_explains_it():
    made = case(answer(softmax(X).T), softmax(X))
    steps.diagnose(made)
    assert made.answer is None and ids(made) == [WRONG_SHAPE] and "transposed" in made.record.findings[0].detail


# --- the probe and the memory -------------------------------------------------------------------


def test_the_probe_counts_and_keys_a_requests_numbers():
    batched = call("softmax", "softmax", RNG.normal(size=(2, 3, 5)), -1)
    assert numbers_in(batched) == 30
    assert sliced(batched).args[0].shape == (3, 5)
    assert numbers_key(batched) == numbers_key(call("softmax", "softmax", batched.args[0], 0))  # numbers alone
    module = layer("projection", "SelfAttention", (4, 3), parts=(), weights={"w": np.ones((3, 4))},
                   input=np.ones((2, 4)))
    assert numbers_in(module) == 20


def test_a_probe_without_stand_ins_asks_the_sandbox_as_it_is():
    asked = []

    class Sandbox:
        def run(self, request, on_standin=None):
            asked.append((request, on_standin))
            return answer(softmax(X))

    context = ExerciseContext(COURSE.exercise("softmax"), COURSE, CATALOGUE, (), {}, True, ())
    probe = Probe(Sandbox(), ORACLE, context)
    request = call("softmax", "softmax", X, -1)
    probe.ask(request)
    assert not probe.standins_possible() and probe.ask_aside(request) is None
    assert asked[0][1] is None and asked[0][0] == request  # the refusal is the sandbox's, not the request's


def test_an_exercise_settled_is_what_later_exercises_read():
    memory = StudentMemory()
    memory.settle("softmax", ["softmax-wrong-dim"], [])
    memory.settle("attention", [], ["softmax"])
    assert memory.found == {"softmax": ["softmax-wrong-dim"], "attention": []}
    assert memory.carried["attention"] == ["softmax"]


def test_the_sandbox_refuses_the_routines_the_catalogue_forbids_and_no_list_of_its_own():
    from attnkit.sandbox import refusals

    softmax_context = ExerciseContext(COURSE.exercise("softmax"), COURSE, CATALOGUE, (), {}, True, ())
    forbidden = {n for m in CATALOGUE.for_exercise("softmax") for n in m.forbid}
    assert set(softmax_context.refused) == forbidden
    operators = {op for op, _ in refusals.plan(softmax_context.refused).kernels}
    assert {"aten::_softmax", "aten::_log_softmax", "aten::scaled_dot_product_attention"} <= operators
    assert not {"aten::matmul", "aten::exp", "aten::logsumexp"} & operators
    attention = ExerciseContext(COURSE.exercise("attention"), COURSE, CATALOGUE, (), {}, True, ())
    assert attention.refused == () and not attention.forbidding  # attention may use any of them


# --- locating (the step that never settles) -----------------------------------------------------------


class TracingSandbox:
    """A sandbox that answers a trace with the bindings the softmax below would make (nothing is run)."""

    SOURCE = ("import torch\n\n\ndef softmax(scores, dim=-1):\n"
              "    shifted = scores - scores.amax(dim=dim, keepdim=True)\n"
              "    exps = torch.exp(shifted)\n    total = exps.sum(dim=0, keepdim=True)\n    return exps / total\n")

    def __init__(self, root, x: np.ndarray):
        from attnkit.sandbox.protocol import Binding, Trace

        self.package_root = root
        (root / "exercises").mkdir(parents=True)
        (root / "exercises" / "softmax.py").write_text(self.SOURCE)
        shifted = x - x.max(axis=-1, keepdims=True)
        exps = np.exp(shifted)
        total = exps.sum(axis=0, keepdims=True)
        values = [(5, "shifted", shifted), (6, "exps", exps), (7, "total", total), (8, "return", exps / total)]
        self.asked: list = []
        self.reply = Trace(answer(exps / total), tuple(Binding("softmax.py", line, name, v.shape, v)
                                                       for line, name, v in values))

    def trace(self, request, on_standin=None, *, hidden=False):
        """Its trace for the first question asked; none for the next (the second input: a double has none)."""
        self.asked.append((request, hidden))
        return self.reply if len(self.asked) == 1 else None


def test_located_notes_a_wrong_answer_to_trace_once_the_checks_are_done_without_settling(tmp_path):
    from attnkit.grading.steps.located import located

    sandbox = TracingSandbox(tmp_path, X)
    wrong = np.exp(X - X.max(axis=-1, keepdims=True))
    made = case(answer(wrong / wrong.sum(axis=0, keepdims=True)), softmax(X))
    made.probe.sandbox = sandbox
    assert not located(made) and not made.record.findings  # words only: nothing is found, nothing settled
    assert made.record.locate_later is not None and not sandbox.asked  # traced later, not while checks run
    made.record.findings.append(Finding.named("softmax-wrong-dim"))  # what the diagnosis goes on to name
    where = made.record.locate_later(True)
    assert where is not None and (where.location.line, where.location.step, where.location.last_right) == \
        (7, "totals", "powers")
    assert [(m, line) for m, _, line, _ in where.mistakes] == [("softmax-wrong-dim", 7)]
    assert [hidden for _, hidden in sandbox.asked] == [True, True]  # asked of the process that answered it
    assert sandbox.asked[1][0].request.args[0].shape != sandbox.asked[0][0].request.args[0].shape  # another input
    noted = made.record.locate_later
    assert not located(made) and made.record.locate_later is noted  # once a check: its first wrong answer


def test_located_is_spared_where_the_course_turns_it_off(tmp_path):
    from dataclasses import replace

    from attnkit.grading.steps.located import located
    from attnkit.settings import Feedback

    sandbox = TracingSandbox(tmp_path, X)
    made = case(answer(np.zeros_like(X)), softmax(X))
    made.probe.sandbox = sandbox
    made.probe.context = replace(made.probe.context, course=replace(COURSE, feedback=Feedback(locate="off")))
    assert not located(made) and made.record.locate_later is None and not sandbox.asked


# --- a right answer over a dependency known wrong -------------------------------------------------------------


@pytest.fixture(scope="module")
def over_half_scores(tmp_path_factory):
    """The reference, but for scaled_scores computed in half precision (off by about the tolerance)."""
    from kit import PLAUSIBLE_MISTAKES, InProcessSandbox, variant_submission
    return InProcessSandbox(variant_submission(tmp_path_factory.mktemp("half"), PLAUSIBLE_MISTAKES["scores-half"]))


def attention_case(sandbox, memory: StudentMemory, student: Answer) -> Case:
    exercise = COURSE.exercise("attention")
    dependencies = [COURSE.exercise(d) for d in COURSE.dependencies("attention")]
    context = ExerciseContext(exercise, COURSE, CATALOGUE, tuple(Standin(d.module, f) for d in dependencies
                                                                 for f in d.functions),
                              {d.module: d.id for d in dependencies}, True, ())
    request = call("attention", "attention", RNG.normal(size=(4, 5)), RNG.normal(size=(6, 5)), RNG.normal(size=(6, 3)))
    return Case(Probe(sandbox, ORACLE, context), memory, CheckRecord(), request, student, ORACLE.reference(request),
                ["output", "weights"])


@pytest.mark.parametrize("known", [{"found": {"scaled_scores": ["wrong-values"]}},
                                   {"carried": {"scaled_scores": ["softmax"]}}], ids=["its-own-mistake", "spared"])
def test_a_right_answer_over_a_dependency_known_wrong_is_earned_as_asked_with_stand_ins(over_half_scores, known):
    made = attention_case(over_half_scores, StudentMemory(**known), Answer())
    made.student = made.reference  # right as it stands
    assert over_a_wrong_dependency(made)
    assert made.answer is not None and made.answer is not made.student and made.probe.ran_with_standins
    assert not made.record.findings and not made.record.carried


def test_a_right_answer_over_dependencies_known_right_is_left_to_the_next_step(over_half_scores):
    made = attention_case(over_half_scores, StudentMemory(found={"scaled_scores": [], "softmax": []}), Answer())
    made.student = made.reference
    assert not over_a_wrong_dependency(made) and made.answer is None and not made.probe.ran_with_standins
