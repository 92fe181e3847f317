"""Where a wrong answer first goes wrong: the step of the lesson's computation, and the student's line.

Pure functions of plain data, in the grader. The evidence is a `Trace` (attnkit/sandbox/tracing.py):
the numbers the student's code bound, line by line, in the traced run of a wrong answer, and the
`Witness`es: the same code traced on a second input (steps/located.py's `second_inputs`), where a line
right on the first by coincidence rarely is (matching.py compares, sources.py reads the files). The
map is the course's: the named steps its mistake model declares (`flaws.step("scale", ...)`), which
the oracle computes with no mistake on, on the same inputs (`Oracle.steps`). The engine knows no step
by name.

How a wrong answer is located (docs/diagnosis.md, "How a wrong answer is located"):

1. Each binding is compared with every step, within the course's tolerance, as it is or in the forms
   students write the same numbers in: transposed, with batch dimensions folded into the rows, with a
   size-1 dimension kept or dropped, one row or one batch element of it (a loop), or the first rows
   of it (a loop still filling it). A binding is *right* where it matches a step, *given* where it
   matches an input (or is an argument), *scaffolding* where it is all zeros (a table a loop fills).
2. The last right step is the latest step some binding matches; the bindings after the first binding
   of it that are neither right nor given nor scaffolding are where the code goes wrong; the first of
   them is the line named.
3. Its step: the wrong bindings are lined up with the steps after the last right one from the end
   (the last wrong binding is the last step's wrong value, the one before it the latest earlier step
   of its shape...), so a student who computes the weights in one built-in call is told "softmax",
   and one who writes the shift by hand and gets it wrong is told "shift".
4. A crash: the same, on the bindings before it; where no earlier line went wrong, the line that
   raised is named, with the shapes its names held (never their numbers) and what its library call
   assumed (attnkit/grading/assumptions.py).

A catalogued mistake is also placed on its own (`mistake_lines`): the course's model run with the
mistake on parts from the reference at some step; the student's binding of those flawed numbers is the
mistake's line. With two mistakes, each is the step where the run with both parts from the run
with the other alone, so each gets its own line.

Trust: the trace comes from the student's process. A binding in a file the grader did not read, on a
line that holds no statement, or whose numbers do not fit its shape makes the whole trace worthless
(no location). What it can change is the words of this student's feedback, never a score.
"""
from __future__ import annotations

import ast
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from attnkit.config import PACKAGE
from attnkit.grading.assumptions import explain, shapes_read
from attnkit.grading.diagnosis import shape_text
from attnkit.grading.matching import (
    Step,
    Testimony,
    Witness,
    believable,
    confirmed,
    discount_parts,
    match,
    matches,
    same_numbers,
    steps_matched,
    testimonies,
)
from attnkit.grading.mistake_lines import FlawedRun, mistake_lines
from attnkit.grading.numbers import Numbers, scale_applied, wrong_number_read
from attnkit.grading.results import Location
from attnkit.grading.sources import Source, names_read, read_sources
from attnkit.sandbox.protocol import Binding, CallRequest, Failure, ModuleRequest, Request, Trace

__all__ = ["Located", "Source", "locate", "locate_traced", "read_sources", "request_inputs"]


@dataclass(frozen=True)
class Located:
    """A location, and the words that go with it beyond the contract's fields."""

    location: Location
    raised: str = ""                       # where a crash raised, when an earlier line is where it goes wrong
    shapes: str = ""                       # a crash: the shapes the raising line's names held
    yours: np.ndarray | None = None        # the student's numbers at the wrong step, and the reference's
    expected: np.ndarray | None = None
    mistakes: tuple[tuple[str, str, int, str], ...] = ()  # (mistake, file, line, code): each named mistake's line
    either: tuple[tuple[str, int], ...] = ()  # a step left out: the line named, and the other it may belong on
    assumed: str = ""                      # a crash: what the raising line's call assumed (assumptions.py)


def locate(trace: Trace, steps: Sequence[Step], inputs: Sequence[np.ndarray], sources: dict[str, Source],
           rtol: float, atol: float, witnesses: Sequence[Witness] = ()) -> Located | None:
    """The first wrong step of a traced wrong answer and the student's line for it, or None; with
    `witnesses` (the same code traced on other inputs), a line is right only where it is right on all."""
    if not believable(trace.bindings, sources):
        return None
    heard = testimonies(witnesses, sources, rtol, atol)
    numbers = Numbers.of(steps, inputs, heard)  # a size or a scale: what a scalar should be
    steps = [(name, value) for name, value in steps if value.size > 1]
    if not steps:
        return None
    bindings = [b for b in trace.bindings if sources[b.file].statements[b.line] not in sources[b.file].def_lines]
    arguments = {b.name for b in trace.bindings if sources[b.file].statements[b.line] in sources[b.file].def_lines}
    matched = confirmed(bindings, discount_parts(bindings, [steps_matched(b, steps, rtol, atol) for b in bindings]),
                        steps, heard)
    matched = [found or _loosely(bindings, i, steps, sources, rtol, atol) for i, found in enumerate(matched)]
    right = [max(m) if m else -1 for m in matched]
    last_right = max(right, default=-1)
    anchor = right.index(last_right) if last_right >= 0 else -1  # where the code had got furthest
    answer = _answer(bindings)
    # a table a loop fills in place is wrong only if it never comes out right on that line
    filled = {(b.file, b.line, b.name) for b, found in zip(bindings, matched) if 2 in found.values()}
    # an alias of an earlier local (`e = shifted`) holding a step already reached is a step left out
    wrong = [i for i in range(anchor + 1, len(bindings))
             if (not matched[i] or _step_alias(bindings[i], arguments))
             and ((bindings[i].file, bindings[i].line, bindings[i].name) not in filled or bindings[i].alias)
             and _suspect(bindings[i], inputs, rtol, atol, heard)
             and not _sums_to_a_step(bindings[i], steps, rtol, atol)
             and (i in answer or bool(matched[i]) or not _a_step_in_logs(bindings[i], steps, inputs, rtol, atol))]
    twin = _first_twin_of_wrong_return(bindings, matched, anchor, answer)
    if twin is not None and (not wrong or twin < wrong[0]):
        wrong = [twin, *wrong]
    crashed = trace.reply if isinstance(trace.reply, Failure) else None
    if not wrong and crashed is None:
        wrong = _last_return(bindings, anchor)  # a step left out: the answer is an earlier step's numbers
        if not wrong:
            return None
    first_wrong = min(last_right + 1, len(steps) - 1)
    step = _aligned_step(_by_site([bindings[i] for i in wrong]), steps, first_wrong) if wrong else first_wrong
    aliased = bool(wrong) and _step_alias(bindings[wrong[0]], arguments)
    left_out = _step_left_out(bindings, matched, wrong, steps, sources, last_right, step) \
        if wrong and not aliased else None  # `p = s`: that line is the one that stops short
    if aliased and last_right >= 0:
        step = min(last_right + 1, len(steps) - 1)
    either: tuple[tuple[str, int], ...] = ()
    if left_out is not None:  # the line that reached the last right step stopped a step short
        if not left_out[1]:  # or the wrong one should compute the step inline: the numbers cannot say which
            either = tuple(_site_line(bindings[i], sources) for i in (left_out[0], wrong[0]))
        wrong, step = [left_out[0]], last_right + 1
    before = steps[last_right][0] if 0 <= last_right < step else None
    if wrong:
        culprit = bindings[wrong[0]]
        where = (culprit.file, sources[culprit.file].statements[culprit.line])
        yours = culprit.value
        for _ in range(3):  # a wrong number, computed from another wrong number...
            scalar = wrong_number_read(bindings[:wrong[0]], sources[where[0]], where[1], numbers, rtol, atol)
            if scalar is None:
                break
            where = (scalar.file, sources[scalar.file].statements[scalar.line])
            spoiled = [k for k, (name, _) in enumerate(steps) if name in numbers.spoils and k >= min(step, first_wrong)]
            step = spoiled[0] if spoiled else step  # a wrong number spoils the step computed from it (the scale)
            before = steps[last_right][0] if 0 <= last_right < step else None
        factor = scale_applied(culprit, bindings[:wrong[0]], sources[where[0]], where[1], steps, numbers, rtol, atol) \
            if where == _site_line(culprit, sources) else None
        if factor is not None:  # `scale = sqrt(d_k)` then `s * scale`: either line may be the wrong one
            name = next((n for n in numbers.spoils if n in dict(steps)), steps[step][0])
            return Located(Location(None, None, None, name, before), either=(_site_line(factor, sources), where))
    else:
        assert crashed is not None
        raised = _raised_at(crashed, sources)
        if raised is None:
            return None
        where, yours = raised, None
        scalar = wrong_number_read(bindings, sources[where[0]], where[1], numbers, rtol, atol)
        if scalar is not None:  # a size computed wrong, which the line that raised was given
            where = (scalar.file, sources[scalar.file].statements[scalar.line])
    source = sources[where[0]]
    location = Location(where[0], where[1], source.code(where[1]), steps[step][0], before)
    if crashed is None:
        return Located(location, yours=yours, expected=steps[step][1], either=either)
    raised_words, shapes, assumed = _crash_words(crashed, where, sources, trace.bindings, inputs)
    return Located(location, raised_words, shapes, yours, steps[step][1], either=either, assumed=assumed)


def _suspect(binding: Binding, inputs: Sequence[np.ndarray], rtol: float, atol: float,
             heard: Sequence[Testimony] = ()) -> bool:
    """A binding that may be where the code goes wrong: not one number, not an input, not a table of zeros.
    Not an input where a witness saw its site hold no input (a row's maxima equal to a row of the
    lesson's symmetric scores)."""
    if binding.value is None:
        return bool(binding.shape) and int(np.prod(binding.shape)) > 1
    value = binding.value
    if value.size <= 1 or (np.isfinite(value).all() and not value.any()):
        return False
    if any(t.refutes_given((binding.file, binding.line, binding.name)) for t in heard):
        return True
    return not any(matches(value, given, rtol, atol) for given in inputs)


def _sums_to_a_step(binding: Binding, steps: Sequence[Step], rtol: float, atol: float) -> bool:
    """Numbers whose sum along one axis is a step (the elementwise products a dot product sums): a right
    intermediate the lesson does not name, not where the code goes wrong."""
    value = binding.value
    if value is None or value.ndim < 2:
        return False
    return any(match(value.sum(axis=axis), target, rtol, atol) == 2
               for axis in range(value.ndim) for _, target in steps if target.size > 1)


def _step_alias(binding: Binding, arguments: set[str]) -> bool:
    """A new name for numbers another name already holds (`e = shifted`, `self.powers = self.shift`): a step
    left out, where it holds a step already reached. Not an attribute set from an argument (`self.W = W`)."""
    return bool(binding.alias) and (not binding.name.startswith("self.") or binding.alias not in arguments)


def _loosely(bindings: Sequence[Binding], index: int, steps: Sequence[Step], sources: dict[str, Source],
             rtol: float, atol: float) -> dict[int, int]:
    """A step's numbers with a size-1 dimension dropped behind (a sum without keepdim), where the line that
    reads them next meets no tensor of more dimensions: per slice (`e / total` for each slice `e`) they
    broadcast as the step does, so they are the step. Beside a larger tensor they broadcast along the
    wrong axis (`exps / exps.sum(-1)`), so they are not, and stay the suspect."""
    binding = bindings[index]
    value = binding.value
    if value is None or value.size <= 1:
        return {}
    loose = [k for k, (_, target) in enumerate(steps) if target.size == value.size and target.shape != value.shape
             and _leading_ones_dropped(tuple(n for n in target.shape if n != 1)) == value.shape
             and match(value.reshape(target.shape), target, rtol, atol) == 2]
    if not loose:
        return {}
    source = sources[binding.file]
    for at in range(index + 1, len(bindings)):
        later = bindings[at]
        line = source.statements.get(later.line) if later.file == binding.file else None
        if line is None or binding.name not in names_read(source, line):
            continue
        partners = _partners(source, line, binding.name)
        if partners is None:  # reshaped where it is used (`total.unsqueeze(dim)`): the dimension is put back
            return {loose[-1]: 2}
        held = {b.name: b.shape for b in bindings[:at] if b.file == binding.file}
        wider = any(len(held.get(name, ())) > value.ndim for name in partners)
        return {} if wider else {loose[-1]: 2}
    return {}


def _partners(source: Source, line: int, name: str) -> list[str] | None:
    """The names an arithmetic operation on `name` meets on a line (`e` in `e / total`); all the line reads
    where no such operation holds it bare, and None where it is only used reshaped (`total[..., None]`)."""
    try:
        tree = ast.parse(source.statement(line))
    except SyntaxError:
        return names_read(source, line)
    bare, wrapped = [], False
    for node in ast.walk(tree):
        if not isinstance(node, ast.BinOp):
            continue
        for side, other in ((node.left, node.right), (node.right, node.left)):
            if isinstance(side, ast.Name) and side.id == name:
                bare += [n.id for n in ast.walk(other) if isinstance(n, ast.Name)]
            elif any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(side)):
                wrapped = True
    if bare:
        return bare
    return None if wrapped else names_read(source, line)


def _leading_ones_dropped(shape: tuple[int, ...]) -> tuple[int, ...]:
    while shape and shape[0] == 1:
        shape = shape[1:]
    return shape


def _a_step_in_logs(binding: Binding, steps: Sequence[Step], inputs: Sequence[np.ndarray], rtol: float,
                    atol: float) -> bool:
    """A right intermediate of a softmax worked in logarithms, which the lesson does not name: numbers whose
    exponential is a step (`x - logsumexp(x)`), or a log-total that turns an input or a step into one
    (`exp(x - log_total)`). Never the answer itself: an answer left in logarithms is wrong."""
    value = binding.value
    if value is None or value.size <= 1:
        return False
    # compared in logarithms (the logs of the steps that are all positive), so no exponential is taken here
    logs = [np.log(target) for _, target in steps if target.size > 1 and np.all(target > 0)]
    candidates = [value]
    for given in [*inputs, *(target for _, target in steps if target.size > 1)]:
        if given.ndim == value.ndim and all(a == b or b == 1 for a, b in zip(given.shape, value.shape)) \
                and value.shape != given.shape:
            candidates.append(given - value)
    return any(match(candidate, log, rtol, atol) == 2 for candidate in candidates for log in logs)


def _answer(bindings: Sequence[Binding]) -> set[int]:
    """The bindings of what the traced call returned: the last `return` bound, and its items beside it."""
    returns = [i for i, b in enumerate(bindings) if b.name.startswith("return")]
    if not returns:
        return set()
    last = bindings[returns[-1]]
    return {i for i in returns if (bindings[i].file, bindings[i].line) == (last.file, last.line)
            and i > returns[-1] - 4}


def _fit(shape: tuple[int, ...], target: tuple[int, ...]) -> int:
    """How well a binding's shape says it holds a step: 2 its shape (transposed, a size-1 dimension kept or
    dropped, batches folded), 1 a part of it (a row), 0 not at all."""
    squeezed = tuple(n for n in shape if n != 1) == tuple(n for n in target if n != 1)
    folded = len(shape) >= 2 and len(target) > len(shape) and shape[-1] == target[-1] and \
        int(np.prod(shape)) == int(np.prod(target))
    if shape == target or shape[:-2] + shape[:-3:-1] == target or squeezed or folded:
        return 2
    return 1 if _part_shape(shape, target) else 0


def _aligned_step(wrong: Sequence[Binding], steps: Sequence[Step], first_wrong: int) -> int:
    """The step the first wrong binding computes: wrong bindings lined up with the steps from the end.

    A binding holding the numbers of a later one (`return weights`, a helper's answer bound by its
    caller) is the same step; so is a part of the one after it (a row a loop builds it from)."""
    position = len(steps)
    assigned: dict[int, int] = {}
    later: Binding | None = None
    for index in reversed(range(len(wrong))):
        binding = wrong[index]
        twin = next((j for j in assigned if same_numbers(binding, wrong[j])), None)
        if twin is not None:
            assigned[index] = assigned[twin]
            continue
        part = later is not None and _part_shape(binding.shape, later.shape)
        end = min(position + 1, len(steps)) if part else position
        # a row bound on the line that builds the step from rows (a comprehension) is surely that step
        building = later is not None and (later.file, later.line) == (binding.file, binding.line)
        fits = {k: (2 if building and _part_shape(binding.shape, steps[k][1].shape) else 1) if part and k == position
                else _fit(binding.shape, steps[k][1].shape) for k in range(first_wrong, end)}
        best = max(fits.values(), default=0)
        if best:
            position = max(k for k, fit in fits.items() if fit == best)
        assigned[index] = position if best else first_wrong
        later = binding
    return max(first_wrong, min(assigned[0], len(steps) - 1))


def _by_site(bindings: Sequence[Binding]) -> list[Binding]:
    """One binding a site (file, line, name), in the order the sites were first bound: each loop's latest."""
    latest: dict[tuple[str, int, str], Binding] = {}
    for binding in bindings:
        latest.setdefault((binding.file, binding.line, binding.name), binding)
        latest[(binding.file, binding.line, binding.name)] = binding
    return list(latest.values())


def _part_shape(shape: tuple[int, ...], whole: tuple[int, ...]) -> bool:
    return len(shape) < len(whole) and whole[len(whole) - len(shape):] == shape


def _first_twin_of_wrong_return(bindings: Sequence[Binding], matched: Sequence[dict[int, int]],
                                anchor: int, answer: set[int]) -> int | None:
    """The first binding, before the furthest step reached, of numbers a wrong answer holds (weights
    computed wrong on their own line while the output, computed apart, is right). The answer only: a
    helper's or a generator's return of an input is no wrong answer."""
    returned = [b for i, (b, found) in enumerate(zip(bindings, matched)) if i in answer and not found
                and b.value is not None and b.value.size > 1]
    for index in range(max(anchor, 0)):
        if not matched[index] and any(same_numbers(bindings[index], r) for r in returned):
            return index
    return None


def _site_line(binding: Binding, sources: dict[str, Source]) -> tuple[str, int]:
    return binding.file, sources[binding.file].statements[binding.line]


def _step_left_out(bindings: Sequence[Binding], matched: Sequence[dict[int, int]], wrong: Sequence[int],
                   steps: Sequence[Step], sources: dict[str, Source], last_right: int,
                   step: int) -> tuple[int, bool] | None:
    """The binding that reached the last right step where the first wrong one skips steps, and whether it
    is surely the line that stopped short (False: it, or the wrong line computing the skipped step inline).

    `e = (x - peak)` (the exponential left out) holds the right shift, so the line after it (`total =
    e.sum(...)`) is the first whose numbers are wrong, and its shape says it is the totals step: the
    powers step between them was never bound. The line that first reached the shift (or the helper line
    that computed it), which the wrong line reads, stopped a step short, where it has the shape of the
    step after it. Sure where one step is skipped, the wrong line's shape is not that step's (a line
    computing it inline, wrong, would have it) and the wrong line is not the last step's. Where it skips
    two (`return exps / exps.sum()` after `exps = x - m`), either line may be the one, unless the wrong
    line is not the last step's and has the first skipped step's shape: it computes that step, wrong
    (`scaled = scores * sqrt(d_k)` before a softmax helper). A line skipping
    more is one call computing several steps (`torch.softmax`): that line is the one."""
    if last_right < 0 or step <= last_right + 1:
        return None
    culprit = bindings[wrong[0]]
    holders = [i for i in range(wrong[0]) if last_right in matched[i]]
    source = sources[culprit.file]
    line = source.statements[culprit.line]  # what it reads, and what the loops around it go through
    read = set(names_read(source, line)) | {n for h in source.headers.get(line, ()) for n in names_read(source, h)}
    latest = next((i for i in reversed(holders) if bindings[i].name in read and bindings[i].file == culprit.file), None)
    if latest is None:
        return None
    site = (bindings[latest].file, bindings[latest].line, bindings[latest].name)
    first = holders[0]  # where those numbers were computed: this site, or a helper's return its caller binds
    same_site = (bindings[first].file, bindings[first].line, bindings[first].name) == site
    if not (same_site or same_numbers(bindings[first], bindings[latest])) or \
            not _fit(bindings[latest].shape, steps[last_right + 1][1].shape):
        return None
    site_of = (culprit.file, culprit.line, culprit.name)
    grown = next(b for b in reversed(bindings) if (b.file, b.line, b.name) == site_of)
    if _fit(grown.shape, steps[step][1].shape) < 2:  # (a list a loop fills: as it ends up)
        return None  # a row of the step, or a reduction (maxima without keepdim): no sign which step it holds
    skipped = [k for k in range(last_right + 1, step)  # a step whose numbers the next one repeats is not one more
               if not (steps[k][1].shape == steps[k + 1][1].shape and np.allclose(steps[k][1], steps[k + 1][1]))]
    if len(skipped) == 1:  # the wrong line with the skipped step's shape computes it inline, wrong
        fits = _fit(culprit.shape, steps[skipped[0]][1].shape) == 2
        return None if fits else (first, step < len(steps) - 1)
    if len(skipped) == 2 and step < len(steps) - 1 and _fit(culprit.shape, steps[skipped[0]][1].shape) == 2:
        return wrong[0], True  # not the last step's line, shaped as the step after the last right: it computes it
    return (first, False) if len(skipped) == 2 else None

def _last_return(bindings: Sequence[Binding], anchor: int) -> list[int]:
    """The last value returned, where it repeats a step already reached: the steps after it are missing."""
    returns = [i for i in range(anchor, len(bindings)) if i >= 0 and bindings[i].name.startswith("return")]
    return returns[-1:]


# --- crashes ----------------------------------------------------------------------------------------

WHERE = re.compile(r"^(?P<file>[^,]+), line (?P<line>\d+)$")


def _raised_at(failure: Failure, sources: dict[str, Source]) -> tuple[str, int] | None:
    found = WHERE.match(failure.where)
    if found is None or found["file"] not in sources:
        return None
    source, line = sources[found["file"]], int(found["line"])
    return (source.name, source.statements[line]) if line in source.statements else None


def _crash_words(crashed: Failure, where: tuple[str, int], sources: dict[str, Source], bindings: Sequence[Binding],
                 inputs: Sequence[np.ndarray]) -> tuple[str, str, str]:
    """Where a crash raised (where that is not where it goes wrong), the shapes its line read (never their
    numbers) and what its call assumed (attnkit/grading/assumptions.py)."""
    raised = _raised_at(crashed, sources)
    raised_words, shapes, assumed = "", "", ""
    if raised is not None:
        if raised != where:
            raised_words = f"{raised[0]}, line {raised[1]}"
        source = sources[raised[0]]
        held = {b.name: b.shape for b in bindings if b.file == source.name}
        read = [(name, held[name]) for name in names_read(source, raised[1]) if name in held and held[name]]
        shapes = ", ".join(f"{name} has shape {shape_text(shape)}" for name, shape in read[:4])
        assumed = explain(source.statement(raised[1]), crashed, shapes_read([n for n, _ in read], held),
                          [tuple(given.shape) for given in inputs])
    batches = [given for given in inputs if given.ndim > 2]
    if batches and "this check passes a batch" not in assumed:  # code written for one grid meets a batch
        shapes += ("; " if shapes else "") + f"this check passes a batch: an input of shape " \
                  f"{shape_text(batches[0].shape)}"
    return raised_words, shapes, assumed


# --- a traced request, as the grader asked it --------------------------------------------------------


def locate_traced(trace: Trace, steps: Sequence[Step], request: Request, package_root: Path, rtol: float,
                  atol: float, mistakes: tuple[str, ...] = (),
                  runs: Mapping[tuple[str, ...], Sequence[FlawedRun]] | None = None,
                  more: Sequence[tuple[Trace, Sequence[Step], Request]] = ()) -> Located | None:
    """Locate a traced wrong answer against the student's files as the grader reads them now; with the
    catalogued `mistakes` named for it and the model's `runs` with them on (and each left out), each too.
    `more`: the same code traced on other inputs (steps/located.py's `second_inputs`), with the model's
    steps on each: a line is right only where it is right on every one."""
    sources = read_sources(package_root / PACKAGE)
    witnesses = [Witness(other, other_steps, request_inputs(asked)) for other, other_steps, asked in more]
    found = locate(trace, steps, request_inputs(request), sources, rtol, atol, witnesses)
    lines = mistake_lines(trace, steps, runs or {}, mistakes, sources, rtol, atol) if mistakes else {}
    placed = tuple((m, file, line, sources[file].code(line)) for m, (file, line, _) in lines.items())
    if lines and found is None:
        mistake, (file, line, step) = next(iter(lines.items()))
        names = [name for name, value in steps if value.size > 1]
        before = names[names.index(step) - 1] if step in names and names.index(step) > 0 else None
        words = found if found is not None else Located(Location(file, line, "", step, before))
        return replace(words, location=Location(file, line, sources[file].code(line), step, before), mistakes=placed,
                       yours=None, expected=None)
    return replace(found, mistakes=placed) if found is not None else None


def request_inputs(request: Request) -> list[np.ndarray]:
    """The arrays the check gave the student's code: a binding holding one of them is not a step."""
    if isinstance(request, CallRequest):
        return [a for a in request.args if isinstance(a, np.ndarray)]
    if isinstance(request, ModuleRequest):
        return [*([request.input] if request.input is not None else []), *request.weights.values()]
    return []

