"""The API a grader's test uses: call the student's code, compare, and say what is wrong.

A grader never touches the student's objects: it builds requests (`call`, `layer`, `constants`),
the `Attempt` sends them to the student's sandbox and to the oracle, and decides in this trusted
process. `expect` is the whole method of a check:

1. the student's answer is compared with the reference's (its layout, shapes, numbers, and its
   inputs, which must come back unchanged);
2. if it is wrong and the exercise calls other exercises, it runs again with correct stand-ins for
   them (error carried forward, CONTRACT.md section 3): right then, it earns its points and names
   the dependency's mistake; wrong still, that run shows the exercise's own mistakes alone;
3. a wrong answer is explained by the mistake models (one mistake, then two), by the generic signs
   (only with batch dimensions, only on large numbers, an answer that ignores its input), or
   described under a generic id with what was observed.
A check reports every finding (`report`) and fails at its end if it has any; `fail` stops it.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, NoReturn

import numpy as np
from _pytest.outcomes import Failed  # pytest.fail.Exception, by a name mypy can take a base class from

from attnkit.config import Course, Exercise
from attnkit.errors import KitError
from attnkit.grading.catalogue import Catalogue
from attnkit.grading.diagnosis import Finding, changed_inputs, explanations, layout, observe, reference_values, same
from attnkit.grading.locating import Located, locate_traced
from attnkit.grading.oracle import NotRecorded, Oracle, request_key
from attnkit.grading.source_rules import ForbiddenNames
from attnkit.sandbox.protocol import (
    Answer,
    CallRequest,
    ConstantsRequest,
    Failure,
    ModuleRequest,
    Reply,
    Request,
    Returned,
    Standin,
    StandinAnswer,
    StandinCall,
    Trace,
    TraceRequest,
    Value,
)

# A stand-in call is answered here, in the grader's process: its arguments may hold a few times the numbers of
# the check's own inputs (scores are n_q x n_k), never the square of them a hostile call could ask for.
STANDIN_ROOM, MIN_STANDIN_ROOM = 8, 1 << 14
NOT_COMPILED = ("SyntaxError", "IndentationError", "TabError")  # a crash no catalogued mistake can explain


class CheckFailed(Failed):
    """A check stopped by `Attempt.fail`; its findings are on the Attempt.

    A pytest failure (a BaseException: a grader's `except Exception` does not swallow it), without
    a traceback, which nothing reads.
    """

    def __init__(self, summary: str):
        super().__init__(summary, pytrace=False)


# --- requests a grader builds ----------------------------------------------------------------------


def call(module: str, function: str, *args: Value, dtype: str = "float32") -> CallRequest:
    """Call `exercises.<module>.<function>(*args)` (positionally: parameter names are the student's)."""
    return CallRequest(module, function, tuple(args), dtype)


def layer(module: str, cls: str, init: Sequence[Value], *, parts: Sequence[str], weights: dict[str, np.ndarray],
          input: np.ndarray | None, upstream: np.ndarray | None = None, dtype: str = "float32",
          zero_unset: bool = False) -> ModuleRequest:
    """Build `cls(*init)`, set `weights` through its parameters, run it on `input`, send `upstream` back."""
    return ModuleRequest(module, cls, tuple(init), tuple(parts), dict(weights), input, upstream, dtype, zero_unset)


def constants(module: str, names: Sequence[str]) -> ConstantsRequest:
    """Read module-level constants as numbers."""
    return ConstantsRequest(module, tuple(names))


# --- what a check and an exercise remember -----------------------------------------------------------


@dataclass(frozen=True)
class Carried:
    """A dependency whose mistake a check was spared: its exercise, what it got wrong, how it showed."""

    exercise: str
    mistakes: tuple[str, ...]
    detail: str


@dataclass
class CheckRecord:
    """What one check found."""

    findings: list[Finding] = field(default_factory=list)
    carried: list[Carried] = field(default_factory=list)
    located: Located | None = None  # where its first wrong answer goes wrong in the student's code


@dataclass
class ExerciseContext:
    """What the checks of one exercise need to know, for one student."""

    exercise: Exercise
    course: Course
    catalogue: Catalogue
    standins: tuple[Standin, ...]         # the functions of every exercise this one builds on
    module_exercises: dict[str, str]      # module -> exercise id, for the stand-ins' owners
    carry_forward: bool
    forbidden: list[str]                  # uses of forbidden names found in the submitted source
    found: dict[str, list[str]]           # exercise id -> mistakes found so far for this student
    carried: dict[str, list[str]]         # exercise id -> the exercises whose mistakes it was spared
    answers: list[tuple[str, list[np.ndarray]]] = field(default_factory=list)  # earlier (request, reference)
    no_pair: bool = False  # no pair of mistakes explained an earlier answer: the same code, so none will
    established: list[tuple[str, ...]] = field(default_factory=list)  # explanations earlier answers proved

    @cached_property
    def forbids_names(self) -> bool:
        """A mistake of this exercise forbids names (softmax-builtin): the sandbox then records the calls it sees."""
        return any(m.forbid for m in self.catalogue.for_exercise(self.exercise.id))

    @property
    def rtol(self) -> float:
        return self.course.settings.rtol

    @property
    def atol(self) -> float:
        return self.course.settings.atol


class Attempt:
    """One student's attempt at one exercise, as seen by one check."""

    def __init__(self, sandbox: Any, oracle: Oracle, context: ExerciseContext, record: CheckRecord):
        self.sandbox = sandbox
        self.oracle = oracle
        self.context = context
        self.record = record
        self._standin_calls: list[tuple[Standin, StandinCall]] = []
        self._forbidden_reported = False
        self._ran_with_standins = False

    # --- the raw calls -------------------------------------------------------------------------

    def run(self, request: Request) -> Reply:
        """The student's raw answer, with no verdict (for checks that judge structure or rules)."""
        return self.sandbox.run(self._recorded(request))

    def _recorded(self, request: Request) -> Request:
        """Where the exercise forbids names, the sandbox also notes the softmax-like calls it sees."""
        if self.context.forbids_names and not isinstance(request, ConstantsRequest):
            return replace(request, record=True)
        return request

    def reference(self, request: Request) -> Answer:
        return self.oracle.reference(request)

    def ask(self, request: Request) -> Reply:
        """The student's answer to a follow-up question, asked as the last `expect` asked (with
        stand-ins for the dependencies if it used them), so a probe sees only this exercise's code."""
        return self._run_with_standins(request, keep=True) if self._ran_with_standins else self.run(request)

    def ask_with_standins(self, request: Request) -> Reply | None:
        """The student's answer with correct stand-ins for the exercises this one builds on, asked aside:
        it changes nothing of how the check goes on (None where no stand-in can be made: a self-check, or
        an exercise that builds on none). Evidence for the feedback only, never for points: code can
        tell a stand-in run apart."""
        if not self._standins_possible():
            return None
        ran, calls = self._ran_with_standins, self._standin_calls
        try:
            return self._run_with_standins(request)
        finally:
            self._ran_with_standins, self._standin_calls = ran, calls

    def right(self, request: Request, reply: Reply) -> bool:
        """Whether a reply is the reference's answer to `request` (and left its inputs alone); False where
        the answer is not known (a self-check asking a question the handout did not record)."""
        try:
            reference = self.reference(request)
        except NotRecorded:
            return False
        return self._problem(request, reply, reference, _default_names(reference)) is None

    def unexplained(self) -> Finding | None:
        """The check's finding that names only a generic mistake or a crash (what no model explained), if any."""
        generic = {"wrong-values", "wrong-shape", "not-finite", "hard-coded", "crash"}
        return next((f for f in self.record.findings
                     if f.proven_only or (len(f.explanations) == 1 and set(f.explanations[0]) <= generic)), None)

    def explain(self, finding: Finding, mistake: str, detail: str) -> None:
        """Name what a grader found behind a generic finding (a probe showed its cause)."""
        self.record.findings[self.record.findings.index(finding)] = Finding.named(mistake, detail=detail)

    # --- findings -------------------------------------------------------------------------------

    def report(self, mistake: str, detail: str = "") -> None:
        """Record a catalogued mistake; the check fails at its end."""
        if mistake not in self.context.catalogue:
            raise KeyError(f"{mistake!r} is not in the mistake catalogue")
        self.record.findings.append(Finding.named(mistake, detail=detail))

    def fail(self, mistake: str, detail: str = "") -> NoReturn:
        """Record a catalogued mistake and stop the check."""
        self.report(mistake, detail)
        raise CheckFailed(f"{mistake}: {detail}")

    def stop(self) -> NoReturn:
        """Stop a check that has already recorded why it fails."""
        raise CheckFailed("; ".join(", ".join(f.explanations[0]) for f in self.record.findings))

    def require(self, reply: Reply) -> Answer:
        """The answer, or stop the check with the failure named (crash, timeout, ...)."""
        if isinstance(reply, Failure):
            self.record.findings.append(self._status_finding(reply))
            self.stop()
        return reply

    # --- the whole check -----------------------------------------------------------------------

    def expect(self, request: Request, *, tame: Request | None = None, batched: bool = False,
               names: Sequence[str] = (), student: Reply | None = None) -> Answer | None:
        """The student's answer if it is right (alone, or with stand-ins for its dependencies), else None.

        `tame`: the same question on small numbers (the reference answers both alike), asked when
        the answer overflows. `batched`: the request has batch dimensions; a wrong answer is also
        asked for its first 2-D slice. `names`: the outputs' names for feedback. `student`: the student's
        reply to `request`, when the check has asked already (to read a layer's make-up first).
        """
        reference = self.reference(request)
        names = names or _default_names(reference)
        if getattr(self.oracle, "records", False):  # a handout records the follow-up questions' answers too
            for follow_up in ([tame] if tame else []) + ([_sliced(request)] if batched else []):
                self.reference(follow_up)
        student = self.run(request) if student is None else student
        self._forbidden(student)
        problem = self._problem(request, student, reference, names)
        if problem is None:
            assert isinstance(student, Answer)  # a failure always has a problem
            self._remember(request, reference)
            return student
        if self._standins_possible() and not isinstance(request, ConstantsRequest):
            own = self._run_with_standins(request)
            if self._problem(request, own, reference, names) is not None:
                student = own  # its own mistakes, without the dependencies' noise
            elif self._carry(request):
                assert isinstance(own, Answer)  # a failure always has a problem
                self._remember(request, reference)
                return own if self.context.carry_forward else None
        self._diagnose(request, student, reference, names, tame=tame, batched=batched)
        self._locate(request, student)
        self._remember(request, reference)
        return None

    # --- judging -------------------------------------------------------------------------------

    def _problem(self, request: Request, student: Reply, reference: Answer, names: Sequence[str]) -> str | None:
        """None when the answer is right and left its inputs alone; else a word on what is wrong."""
        if isinstance(student, Failure):
            return student.status
        values = layout(student.returned, _returned(reference), names) if student.returned else "no answer"
        if isinstance(values, str):
            return "wrong-type"
        if not same(values, reference_values(_returned(reference)), self.context.rtol, self.context.atol):
            return "values"
        if isinstance(request, CallRequest) and changed_inputs(request.args, student.inputs_after, request.dtype):
            return "mutates-input"
        return None

    def _diagnose(self, request: Request, student: Reply, reference: Answer, names: Sequence[str], *,
                  tame: Request | None, batched: bool) -> None:
        """Record every finding that explains this wrong answer."""
        blamed = self._failing_dependency()
        if blamed is not None:
            self.record.findings.append(blamed)
            return
        if isinstance(student, Failure):
            if not (batched and self._batch_only(request, names)):
                self.record.findings.append(self._crash_finding(request, student))
            return
        values = layout(_returned(student), _returned(reference), names)
        if isinstance(values, str):
            self.record.findings.append(Finding.named("wrong-type", detail=f"your {self._function} {values}"))
            return
        if isinstance(request, CallRequest):
            changed = changed_inputs(request.args, student.inputs_after, request.dtype)
            if changed:
                which = " and ".join(f"argument {i}" for i in changed)
                self.record.findings.append(Finding.named(
                    "mutates-input", detail=f"{which} came back changed: your code changed its input in place"))
        expected = reference_values(_returned(reference))
        if same(values, expected, self.context.rtol, self.context.atol):
            return
        if tame is not None and self._overflow_only(values, expected, tame, names):
            return
        self._explain(request, values, expected, names, batched)

    def _explain(self, request: Request, values: list[np.ndarray], expected: list[np.ndarray],
                 names: Sequence[str], batched: bool) -> None:
        """One mistake, else two, else a batch-only or input-independent sign, else what was seen."""
        finite = any(np.isfinite(v).any() for v in values)  # nan and inf alone say too little to name a mistake
        for proven in self.context.established if finite else ():  # the same code: try what it proved first
            found = self._explanations(request, values, len(proven), proven)
            if found:
                self.record.findings.append(Finding(found, fallback=self._generic(values, expected, names)[0]))
                return
        for size in ((1,) if self.context.no_pair else (1, 2)) if finite else ():
            found = self._explanations(request, values, size)
            if found:
                self.record.findings.append(Finding(found, fallback=self._generic(values, expected, names)[0]))
                if len(found) == 1 and found[0] not in self.context.established:
                    self.context.established.append(found[0])
                return
            self.context.no_pair = size == 2
        if batched and self._batch_only(request, names, generic=self._generic(values, expected, names)):
            return
        if self._ignores_input(request, values):
            return
        mistake, detail = self._generic(values, expected, names)
        self.record.findings.append(Finding.named(mistake, detail=detail))

    def _explanations(self, request: Request, values: list[np.ndarray], size: int,
                      within: Sequence[str] | None = None) -> list[tuple[str, ...]]:
        """The configurations of `size` mistakes (of `within`, if given) whose answer to `request` is `values`."""
        return explanations(values, self.oracle.candidates(request, size, within), self.context.rtol,
                            self.context.atol)

    def _generic(self, values: list[np.ndarray], expected: list[np.ndarray], names: Sequence[str]) -> tuple[str, str]:
        return observe(values, expected, names, self.context.rtol, self.context.atol)

    def _failing_dependency(self) -> Finding | None:
        """Where no stand-in can be made (a self-check has no reference), a dependency that failed its own
        checks is named as the cause: this exercise cannot be judged on its own until that is fixed."""
        if self._standins_possible():
            return None
        for owner in self.context.course.dependencies(self.context.exercise.id):
            mistakes = self.context.found.get(owner)
            if mistakes:
                module = self.context.course.exercise(owner).module
                return Finding.named(*mistakes, detail=f"{self.context.exercise.id} fails because your {owner} does "
                                                       f"({', '.join(mistakes)}): fix {module}.py first, then check "
                                                       f"{self.context.exercise.id} again")
        return None

    # --- generic signs ---------------------------------------------------------------------------

    def _overflow_only(self, values: list[np.ndarray], expected: list[np.ndarray], tame: Request,
                       names: Sequence[str]) -> bool:
        """Non-finite here, finite on the same question with small numbers: the overflow mistakes, and
        whatever else the small question shows."""
        if all(np.isfinite(v).all() for v in values) or not all(np.isfinite(e).all() for e in expected):
            return False
        mistakes = self._signature_mistakes("overflow-only")
        student = self.ask(tame)
        if not mistakes or isinstance(student, Failure):
            return False
        reference = self.oracle.reference(tame)
        small = layout(_returned(student), _returned(reference), names)
        if isinstance(small, str) or not all(np.isfinite(v).all() for v in small):
            return False
        self.record.findings.append(Finding([(mistakes[0],)], detail="large scores overflow to nan or inf, while the "
                                            "same scores made small give finite numbers", mistakes=(mistakes[0],)))
        expected_small = reference_values(_returned(reference))
        if not same(small, expected_small, self.context.rtol, self.context.atol):
            self._explain(tame, small, expected_small, names, batched=False)
        return True

    def _batch_only(self, request: Request, names: Sequence[str], generic: tuple[str, str] | None = None) -> bool:
        """Wrong with batch dimensions in front, right on the first grid alone.

        On a crash (`generic` None), the batch-only mistake whose own code cannot run on this batch either.
        On numbers (`generic`: what they show, and how), no mistake: had a batch-only mistake's model computed them,
        the explanations would have named it already, so the code goes wrong on batches some other way.
        """
        if not isinstance(request, CallRequest):
            return False
        sliced = _sliced(request)
        student = self.ask(sliced)
        reference = self.reference(sliced)
        if isinstance(student, Failure):
            return False
        values = layout(_returned(student), _returned(reference), names)
        if isinstance(values, str):
            return False
        expected = reference_values(_returned(reference))
        also: list[tuple[str, ...]] = []
        if not same(values, expected, self.context.rtol, self.context.atol):
            also = self._explanations(sliced, values, 1)
            if len(also) != 1:
                return False  # wrong on one grid too, and not by one known mistake: not a sign of batches
        detail = ("right on a single grid" if not also else "on a single grid it makes one mistake only") + \
                 ", but wrong once batch dimensions come in front"
        if generic is None:
            crashing = self.oracle.crashing(request)
            batch = tuple(m for m in self._signature_mistakes("batch-only") if m in crashing)[:1]
            if not batch:
                return False  # no known mistake fails here as it does: the crash, as it happened
        else:
            batch, detail = (generic[0],), f"{detail}: {generic[1]}"
        self.record.findings.append(Finding.named(*batch, *(also[0] if also else ()), detail=detail))
        return True

    def _ignores_input(self, request: Request, values: list[np.ndarray]) -> bool:
        """The right answer to an earlier question on other numbers: hard-coded (it does not depend on its
        input). Questions on the same numbers asked another way (another `dim`) do not count."""
        key = _numbers_key(request)
        for earlier_key, earlier in self.context.answers:
            if earlier_key != key and same(values, earlier, self.context.rtol, self.context.atol):
                self.record.findings.append(Finding.named(
                    "hard-coded", detail="your answer to these inputs is the right answer to other inputs "
                                         "(such as the lesson's example): it does not depend on its input"))
                return True
        return False

    def _signature_mistakes(self, signature: str) -> list[str]:
        exercises = [self.context.exercise.id, *self.context.course.dependencies(self.context.exercise.id)]
        return [m.id for m in self.context.catalogue.with_signature(signature, exercises)]

    def _forbidden(self, student: Reply) -> None:
        """Names the exercise must not use: found in its submitted source (decided here, from files the
        student's process never touched), or seen called at run time (which may add, never clear)."""
        if self._forbidden_reported:
            return
        seen = list(self.context.forbidden)
        for mistake in self.context.catalogue.for_exercise(self.context.exercise.id):
            if not mistake.forbid:
                continue
            names = ForbiddenNames(mistake.forbid)  # matched as in the source: log_softmax holds softmax
            called = [c for c in getattr(student, "calls", ()) if names.match(c)]
            uses = seen + [f"your code called {c} while it ran" for c in called]
            if uses:
                self._forbidden_reported = True
                self.record.findings.append(Finding.named(mistake.id, detail="; ".join(uses[:3])))

    # --- error carried forward -------------------------------------------------------------------

    @property
    def _function(self) -> str:
        return self.context.exercise.module

    def _standins_possible(self) -> bool:
        return bool(self.context.standins) and self.oracle.can_stand_in

    def _with_standins(self, request: Request) -> Request:
        return replace(request, standins=self.context.standins) if isinstance(request, (CallRequest, ModuleRequest)) \
            else request

    def _locate(self, request: Request, student: Reply) -> None:
        """The check's first wrong answer, run again under the tracer as it was asked (attnkit/grading/locating.py)."""
        if self.record.located is not None or self.context.course.feedback.locate == "off" \
                or not hasattr(self.sandbox, "trace") or isinstance(request, ConstantsRequest) \
                or (isinstance(student, Failure) and (student.status != "crash" or student.type in NOT_COMPILED)):
            return

        def traced(asked: Request, answer: Any = None) -> Any:
            assert not isinstance(asked, ConstantsRequest)  # refused above
            return self.sandbox.trace(TraceRequest(asked), answer)

        trace = self._run_with_standins(request, keep=True, send=traced) if self._ran_with_standins \
            else traced(self._recorded(request))
        if isinstance(trace, Trace):
            mistakes = self._catalogued(request)
            runs = {subset: self.oracle.flawed_steps(request, subset)
                    for subset in [mistakes, *[tuple(m for m in mistakes if m != left) for left in mistakes]] if subset}
            self.record.located = locate_traced(trace, self.oracle.steps(request), request, self.sandbox.package_root,
                                                self.context.rtol, self.context.atol, mistakes, runs)

    def _catalogued(self, request: Request) -> tuple[str, ...]:
        """The catalogued mistakes the check's last finding names without doubt (each is then placed too)."""
        generic = {"wrong-values", "wrong-shape", "not-finite", "hard-coded", "crash", "mutates-input", "wrong-type"}
        finding = self.record.findings[-1] if self.record.findings else None
        if finding is None or len(finding.explanations) != 1 or finding.proven_only:
            return ()
        return tuple(m for m in finding.explanations[0] if m not in generic and m in self.context.catalogue)

    def _run_with_standins(self, request: Request, keep: bool = False, send: Any = None) -> Reply:
        """The student's own code, with correct stand-ins for the exercises it builds on (`send`: how the
        request goes to the sandbox, the sandbox's `run` unless said)."""
        self._ran_with_standins = True
        if not keep:
            self._standin_calls = []

        room = max(STANDIN_ROOM * _numbers_in(request), MIN_STANDIN_ROOM)

        def answer(standin: Standin, standin_call: StandinCall) -> StandinAnswer:
            if _numbers_in((standin_call.args, standin_call.kwargs, standin_call.grad_outputs)) > room:
                return StandinAnswer(error=f"a call of {standin.function} on more numbers than this check's "
                                           "inputs could lead to (the reference's work is the grader's)")
            if standin_call.grad_outputs is None and all(s != standin for s, _ in self._standin_calls):
                self._standin_calls.append((standin, standin_call))  # the first call of each is asked again
            return self.oracle.standin(standin, standin_call)

        return (send or self.sandbox.run)(self._recorded(self._with_standins(request)), answer)

    def _carry(self, request: Request) -> bool:
        """Right with stand-ins: find which dependency of the student's was wrong, by asking it directly.
        False when none was: then nothing is carried."""
        causes: list[Carried] = []
        asked: set[Standin] = set()
        for standin, standin_call in self._standin_calls:
            if standin in asked:
                continue
            asked.add(standin)
            owner = self.context.module_exercises[standin.module]
            known = self.context.found.get(owner)  # its own checks named its mistakes already: no need to ask
            if known == [] and not self.context.carried.get(owner):  # its own checks passed it on its own:
                continue  # a dependency that answers wrong only when asked later (code that tells a stand-in
                # run apart) is not to be believed
            cause = (Carried(owner, tuple(known), "") if known
                     else self._dependency_cause(standin, standin_call, request))
            if cause is not None:
                causes.append(cause)
        if not causes:
            causes = self._likely_causes([self.context.module_exercises[s.module] for s in asked])
        if not causes:  # right with stand-ins, wrong without, and no dependency of the student's is wrong:
            return False  # the code behaves differently when stood in for, and earns nothing by it
        if self.context.carry_forward:
            self.record.carried += causes
        else:
            for cause in causes:
                self.record.findings.append(Finding.named(
                    *(cause.mistakes or ("wrong-values",)),
                    detail=f"{self.context.exercise.id} is right on its own and fails only because your "
                           f"{cause.exercise} does{': ' + cause.detail if cause.detail else ''}"))
        return True

    def _likely_causes(self, called: list[str]) -> list[Carried]:
        """No probe showed the cause (a dependency whose answers are right but whose side effects are not,
        such as an in-place change that breaks the backward pass): the called exercises, or those they
        build on, that made mistakes of their own."""
        course = self.context.course
        reach = list(dict.fromkeys(e for c in called for e in [c, *course.dependencies(c)]))
        return [Carried(e, tuple(self.context.found[e]), "") for e in reach if self.context.found.get(e)]

    def _dependency_cause(self, standin: Standin, standin_call: StandinCall, request: Request) -> Carried | None:
        """The student's own dependency on the numbers it was given in this check: wrong, and how."""
        dtype = getattr(request, "dtype", "float32")
        args = self.oracle.positional(standin, standin_call)
        if args is None:
            return None  # arguments the reference cannot place: the owner's own checks say what is wrong
        probe = CallRequest(standin.module, standin.function, args, dtype)
        exercise = self.context.module_exercises[standin.module]
        try:
            reference = self.reference(probe)
        except KitError:  # the student's code gave its dependency what the reference refuses: no evidence
            return None   # against the dependency, and no bug of the course's (the question is the student's)
        student = self.run(probe)
        problem = self._problem(probe, student, reference, _default_names(reference))
        if problem is None:
            return None
        if self.context.carried.get(exercise):  # right on its own too: the cause lies further down
            dependency = self.context.carried[exercise][0]
            return Carried(dependency, tuple(self.context.found.get(dependency, [])), "")
        known = tuple(self.context.found.get(exercise, []))
        if isinstance(student, Failure):
            return Carried(exercise, known or (student.status,), self._status_finding(student).detail)
        values = layout(_returned(student), _returned(reference), _default_names(reference))
        if isinstance(values, str):
            return Carried(exercise, known or ("wrong-type",), values)
        expected = reference_values(_returned(reference))
        found = self._explanations(probe, values, 1)
        if len(found) == 1:  # one mistake, on the question the dependency was asked; its own checks say the rest
            return Carried(exercise, found[0], "")
        if problem == "mutates-input":
            return Carried(exercise, ("mutates-input",), "it changes its input in place")
        return Carried(exercise, known or (self._generic(values, expected, _default_names(reference))[0],), "")

    # --- statuses -------------------------------------------------------------------------------

    def _crash_finding(self, request: Request, failure: Failure) -> Finding:
        """A crash, or the mistake (proven by numbers in another check) whose code cannot run on this input."""
        finding = self._status_finding(failure)
        if finding.mistakes != ("crash",) or failure.type in NOT_COMPILED:  # a catalogued mistake is code that runs
            return finding
        crashing = self.oracle.crashing(request)
        if not crashing:
            return finding
        return Finding([(m,) for m in crashing], detail=finding.detail, fallback="crash", proven_only=True)

    def _status_finding(self, failure: Failure) -> Finding:
        """not-implemented, crash, timeout, exited or malformed-reply, with what happened and where."""
        if failure.type == "ModuleNotFoundError" and failure.message.endswith(f".{self._function}'"):
            return Finding.named("not-implemented", detail=f"there is no exercises/{self._function}.py")
        if failure.status == "crash":
            detail = f"{failure.type}: {failure.message}" if failure.type != "SyntaxError" else \
                f"SyntaxError: {failure.message}"
            detail += f" ({failure.where})" if failure.where else ""
        elif failure.status == "not-implemented":
            detail = f"still raises NotImplementedError ({failure.where})" if failure.where else \
                "still raises NotImplementedError"
        else:
            detail = failure.message
        return Finding.named(failure.status, detail=detail)

    def _remember(self, request: Request, reference: Answer) -> None:
        if reference.returned is not None:
            self.context.answers.append((_numbers_key(request), reference_values(reference.returned)))


def _numbers_in(value: Any) -> int:
    """How many numbers the arrays in a request or a stand-in call's arguments hold."""
    if isinstance(value, np.ndarray):
        return int(value.size)
    if isinstance(value, dict):
        return sum(_numbers_in(v) for v in value.values())
    if isinstance(value, (tuple, list)):
        return sum(_numbers_in(v) for v in value)
    if isinstance(value, (CallRequest, ModuleRequest)):
        return _numbers_in((getattr(value, "args", ()), getattr(value, "input", None), getattr(value, "weights", {}),
                            getattr(value, "upstream", None)))
    return 0


def _numbers_key(request: Request) -> str:
    """A digest of a request's arrays alone (the numbers a student's code is given)."""
    arrays = [a for a in getattr(request, "args", ()) if isinstance(a, np.ndarray)]
    if isinstance(request, ModuleRequest):
        arrays = [request.input] if request.input is not None else []
    return request_key(CallRequest("", "", tuple(arrays))) if arrays else request_key(request)


def _sliced(request: Request) -> Request:
    """The request on its array arguments' first 2-D grids."""
    return replace(request, args=tuple(_first_grid(a) for a in request.args)) if isinstance(request, CallRequest) \
        else request


def _first_grid(value: Any) -> Any:
    """An array argument's first 2-D grid (all leading indices 0); other arguments as they are."""
    if isinstance(value, np.ndarray) and value.ndim > 2:
        return value[(0,) * (value.ndim - 2)]
    return value


def _returned(answer: Answer) -> Returned:
    """What a call or a layer's forward returned: an answer to either has it (the runner checks)."""
    assert answer.returned is not None
    return answer.returned


def _default_names(reference: Answer) -> list[str]:
    if reference.returned is None or reference.returned.kind == "array":
        return ["the result"]
    return [f"result {i}" for i in range(1, len(reference.returned.items) + 1)]
