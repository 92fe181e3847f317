"""Error carried forward (docs/contract.md): a wrong answer is asked again with correct stand-ins for the
exercises it builds on. Right then, it earns its points (if the course carries errors forward) and names the
dependency's mistake; wrong still, the steps after this one judge that answer, the exercise's own mistakes alone.
"""
from __future__ import annotations

from attnkit.errors import KitError
from attnkit.grading.diagnosis import Finding, layout, observe, reference_values
from attnkit.grading.engine_ids import MUTATES_INPUT, WRONG_TYPE, WRONG_VALUES
from attnkit.grading.memory import Carried
from attnkit.grading.probe import default_names, returned
from attnkit.grading.steps.case import Case, problem, status_finding
from attnkit.sandbox.protocol import Answer, CallRequest, ConstantsRequest, Failure, Request, Standin, StandinCall


def carried_forward(case: Case) -> bool:
    if not case.probe.standins_possible() or isinstance(case.request, ConstantsRequest):
        return False
    own = case.probe.run_with_standins(case.request)
    if problem(case.context, case.request, own, case.reference, case.names) is not None:
        case.student = own  # its own mistakes, without the dependencies' noise
        return False
    if not _carry(case):
        return False
    assert isinstance(own, Answer)  # a failure always has a problem
    case.answer = own if case.context.carry_forward else None
    return True


def _carry(case: Case) -> bool:
    """Right with stand-ins: find which dependency of the student's was wrong, by asking it directly.
    False when none was: then nothing is carried."""
    context, memory = case.context, case.memory
    causes: list[Carried] = []
    asked: set[Standin] = set()
    for standin, standin_call in case.probe.standin_calls:
        if standin in asked:
            continue
        asked.add(standin)
        owner = context.module_exercises[standin.module]
        known = memory.found.get(owner)  # its own checks named its mistakes already: no need to ask
        if known == [] and not memory.carried.get(owner):  # its own checks passed it on its own:
            continue  # a dependency that answers wrong only when asked later (code that tells a stand-in
            # run apart) is not to be believed
        causes += ([Carried(owner, tuple(known), "")] if known
                   else _dependency_causes(case, standin, standin_call))
    if not causes:
        causes = _likely_causes(case, [context.module_exercises[s.module] for s in asked])
    if not causes:  # right with stand-ins, wrong without, and no dependency of the student's is wrong:
        return False  # the code behaves differently when stood in for, and earns nothing by it
    if context.carry_forward:
        case.record.carried += causes
    else:
        for cause in causes:
            case.add(Finding.named(
                *(cause.mistakes or (WRONG_VALUES,)),
                detail=f"{context.exercise.id} is right on its own and fails only because your "
                       f"{cause.exercise} does{': ' + cause.detail if cause.detail else ''}"))
    return True


def _likely_causes(case: Case, called: list[str]) -> list[Carried]:
    """No probe showed the cause (a dependency whose answers are right but whose side effects are not,
    such as an in-place change that breaks the backward pass): the called exercises, or those they
    build on, that made mistakes of their own."""
    course, found = case.context.course, case.memory.found
    reach = list(dict.fromkeys(e for c in called for e in [c, *course.dependencies(c)]))
    return [Carried(e, tuple(found[e]), "") for e in reach if found.get(e)]


def _dependency_causes(case: Case, standin: Standin, standin_call: StandinCall) -> list[Carried]:
    """The student's own dependency on the numbers it was given in this check: wrong, and how (or, where that
    dependency was itself spared, every exercise it was spared for)."""
    context, memory, probe = case.context, case.memory, case.probe
    request: Request = case.request
    dtype = getattr(request, "dtype", "float32")
    args = probe.oracle.positional(standin, standin_call)
    if args is None:
        return []  # arguments the reference cannot place: the owner's own checks say what is wrong
    question = CallRequest(standin.module, standin.function, args, dtype)
    exercise = context.module_exercises[standin.module]
    try:
        reference = probe.reference(question)
    except KitError:  # the student's code gave its dependency what the reference refuses: no evidence
        return []   # against the dependency, and no bug of the course's (the question is the student's)
    student = probe.run(question)
    names = default_names(reference)
    wrong = problem(context, question, student, reference, names)
    if wrong is None:
        return []
    if memory.carried.get(exercise):  # right on its own too: the causes lie further down
        return [Carried(d, tuple(memory.found.get(d, [])), "") for d in memory.carried[exercise]]
    known = tuple(memory.found.get(exercise, []))
    if isinstance(student, Failure):
        return [Carried(exercise, known or (student.status,), status_finding(context, student).detail)]
    values = layout(returned(student), returned(reference), names)
    if isinstance(values, str):
        return [Carried(exercise, known or (WRONG_TYPE,), values)]
    expected = reference_values(returned(reference))
    found = case.explanations(question, values, 1)
    if len(found) == 1:  # one mistake, on the question the dependency was asked; its own checks say the rest
        return [Carried(exercise, found[0], "")]
    if wrong == MUTATES_INPUT:
        return [Carried(exercise, (MUTATES_INPUT,), "it changes its input in place")]
    generic = observe(values, expected, names, context.rtol, context.atol)[0]
    return [Carried(exercise, known or (generic,), "")]
